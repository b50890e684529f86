import { parsePart } from './src/templates/template-syntax.js';
import { compileVersion } from './src/templates/render-version.js';
const time = (label: string, s: string) => { const t0 = performance.now(); let r = 'ok'; try { const c = compileVersion({subject: 'x', html: s, text: null}); } catch (e: any) { r = e.message.slice(0, 80) } console.log(label, s.length, (performance.now()-t0).toFixed(0), 'ms', r); };
time('13k mustaches', '{{a}}'.repeat(13000));
time('one tag many params', '{{eq ' + 'a '.repeat(32000) + '}}');
time('nest 32 x many', ('{{#if a}}'.repeat(30) + 'x' + '{{/if}}'.repeat(30)).repeat(240));
time('elseif 31 x many', ('{{#if a}}' + '{{else if b}}x'.repeat(31) + '{{/if}}').repeat(140));
time('subexpr 31 x many', ('{{eq ' + '(eq '.repeat(31) + 'x' + ' y)'.repeat(31) + ' z}}').repeat(150));
time('1MiB content+tags', ('<p>' + 'x'.repeat(60) + '</p>{{a.b}}').repeat(12000));
import { renderVersion, FULL_BUDGET } from './src/templates/render-version.js';
for (const [label, s] of [['13k mustaches', '{{a}}'.repeat(13000)], ['elseif', ('{{#if a}}' + '{{else if b}}x'.repeat(31) + '{{/if}}').repeat(140)], ['subexpr', ('{{eq ' + '(eq '.repeat(31) + 'x' + ' y)'.repeat(31) + ' z}}').repeat(150)]] as const) {
  const c = compileVersion({subject: 'x', html: s, text: null});
  const t0 = performance.now(); const r = renderVersion(c, {a: 1}, {skipSubject: false, budget: FULL_BUDGET}); console.log(label, 'first render', (performance.now()-t0).toFixed(0), r.ok);
  const t1 = performance.now(); renderVersion(c, {a: 1}, {skipSubject: false, budget: FULL_BUDGET}); console.log(label, 'second render', (performance.now()-t1).toFixed(0));
}
