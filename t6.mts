import { parsePart } from './src/templates/template-syntax.js';
const cases: string[] = [
    '{{(lookup a b)}}',
    '{{#if (custom a)}}x{{/if}}',
    '{{#if (if a)}}x{{/if}}',
    '{{@foo}}',
    '{{../x}}',
];
for (const s of cases) { const t0 = performance.now(); try { parsePart('html', s); console.log('ok', s) } catch (e: any) { console.log(e.message, performance.now() - t0) } }
