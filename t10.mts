import Handlebars from 'handlebars';
import { compileVersion, renderVersion, FULL_BUDGET } from './src/templates/render-version.js';
for (const n of [1000, 2000, 4000, 8000]) {
  const s = '<p>{{a}}</p>'.repeat(n);
  let t0 = performance.now(); Handlebars.precompile(s); const plain = performance.now() - t0;
  t0 = performance.now(); const c = compileVersion({subject: 'x', html: s, text: null}); renderVersion(c, {a: 1}, {skipSubject: false, budget: FULL_BUDGET}); const mine = performance.now() - t0;
  console.log(n, 'plain precompile', plain.toFixed(0), 'mine parse+compile+render', mine.toFixed(0));
}
