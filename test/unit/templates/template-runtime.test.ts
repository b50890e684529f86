// The locked-down engine (src/templates/template-runtime.ts, render-version.ts): escaping per
// part, the helpers, the render budget, and that nothing reaches the prototype chain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePart, type TemplatePart } from '../../../src/templates/template-syntax.js';
import { compilePart, renderPart, RenderStop, withBudget } from '../../../src/templates/template-runtime.js';
import { compileVersion, FULL_BUDGET, missingVariable, renderVersion } from '../../../src/templates/render-version.js';

function render(source: string, variables: Record<string, unknown>, part: TemplatePart = 'html', budget = FULL_BUDGET) {
  return withBudget(budget, () => renderPart(compilePart(part, parsePart(part, source)), variables));
}

function stop(source: string, variables: Record<string, unknown>, budget = FULL_BUDGET): RenderStop {
  try {
    render(source, variables, 'html', budget);
  } catch (err) {
    if (err instanceof RenderStop) return err;
    throw err;
  }
  assert.fail(`rendered: ${source}`);
}

test('html escapes every value written with {{ }}, not {{{ }}}; text writes values as they are', () => {
  const v = { x: `<a href="x" onclick='y'>&\`=</a>`, n: 5 };
  assert.equal(
    render('{{x}}|{{{x}}}|{{n}}', v),
    `&lt;a href&#x3D;&quot;x&quot; onclick&#x3D;&#x27;y&#x27;&gt;&amp;&#x60;&#x3D;&lt;/a&gt;|${v.x}|5`,
  );
  assert.equal(render('{{x}}|{{{x}}}', v, 'text'), `${v.x}|${v.x}`);
  assert.equal(render('{{#each l}}{{this}}{{/each}}', { l: ['<', '>'] }), '&lt;&gt;');
  assert.equal(render('{{default missing "<i>"}}', {}), '&lt;i&gt;', 'a helper result is escaped too');
});

test('the subject writes no line break or control character: each run becomes one space', () => {
  const v = { name: 'Ada\r\nBcc: victim@example.org\n\tX-Evil: 1\u0000\u0085end', items: ['a\n', 'b'] };
  assert.equal(render('Hi {{name}}', v, 'subject'), 'Hi Ada Bcc: victim@example.org X-Evil: 1 end');
  assert.equal(render('Hi {{{name}}}', v, 'subject'), 'Hi Ada Bcc: victim@example.org X-Evil: 1 end');
  assert.equal(render('{{#each items}}{{this}}{{/each}}', v, 'subject'), 'a b');
  assert.equal(render('{{name}}', { name: '<Ada & Bo>' }, 'subject'), '<Ada & Bo>', 'not HTML-escaped');
});

test('values are written as Handlebars writes them, without calling anything they hold', () => {
  assert.equal(
    render('{{a}}|{{o}}|{{n}}|{{z}}|{{t}}|{{f}}|{{u}}|{{nil}}', {
      a: [1, [2, 3], null],
      o: { toString: 'x' },
      n: 1.5,
      z: 0,
      t: true,
      f: false,
      nil: null,
    }),
    '1,2,3,|[object Object]|1.5|0|true|false||',
  );
});

test('eq, default, date and includeZero', () => {
  assert.equal(render('{{#if (eq s "paid")}}P{{else}}U{{/if}}{{eq 1 1}}{{eq 1 "1"}}', { s: 'paid' }), 'Ptruefalse');
  assert.equal(
    render('{{default a "x"}}{{default b "x"}}{{default c "x"}}{{default d "x"}}{{default e "x"}}', {
      b: null,
      c: '',
      d: 0,
      e: false,
    }),
    'xxx0false',
  );
  const at = { iso: '2026-11-25T09:30:00Z', day: '2026-11-25', offset: '2026-11-25T09:30:00+02:00', unix: 1764063000 };
  assert.equal(render('{{date iso "dddd D MMMM YYYY, HH:mm"}}', at), 'Wednesday 25 November 2026, 09:30');
  assert.equal(render('{{date day "YYYY-MM-DD"}}', at), '2026-11-25');
  assert.equal(render('{{date offset "HH:mm Z"}}', at), '07:30 +00:00');
  assert.equal(render('{{date unix "YYYY-MM-DD HH:mm"}}', at), '2025-11-25 09:30');
  assert.equal(render('{{date iso "HH:mm Z" tz="Asia/Tokyo"}}', at), '18:30 +09:00');
  assert.equal(render('{{date iso "D MMM HH:mm" tz="America/New_York"}}', at), '25 Nov 04:30');
  assert.equal(render('{{date iso "[at] HH [o\'clock]"}}', at, 'text'), "at 09 o'clock");
  assert.equal(render('{{#if x}}{{date missing "YYYY"}}{{/if}}[{{date nil "YYYY"}}]', { x: 1, nil: null }), '[]');
  for (const bad of ['soon', '25/11/2026', '2026-13-45', '2026-02-30', '2026-11-25T24:00:00Z', true]) {
    const err = stop('{{date v "YYYY"}}', { v: bad });
    assert.equal(err.kind, 'value', String(bad));
    assert.match(err.message, /neither an ISO 8601 date/);
  }
  assert.equal(render('{{#if n includeZero=true}}zero{{/if}}{{#if n}}no{{/if}}', { n: 0 }), 'zero');
});

test('the budget stops a render that would run away: nested #each, long lists, large output, static text per iteration', () => {
  const big = Array.from({ length: 50_000 }, (_, i) => i);
  const started = performance.now();
  const nested = stop('{{#each a}}{{#each ../a}}{{#each ../../a}}{{this}}{{/each}}{{/each}}{{/each}}', { a: big });
  assert.equal(nested.kind, 'steps');
  assert.match(nested.message, /more than 200000 steps/);
  const empty = stop('{{#each a}}{{#each ../a}}{{/each}}{{/each}}', { a: big });
  assert.equal(empty.kind, 'steps', 'an empty block still counts each iteration');
  const helpers = stop('{{#each a}}{{#each ../a}}{{#if (eq this 1)}}{{/if}}{{/each}}{{/each}}', { a: big });
  assert.equal(helpers.kind, 'steps');
  const output = stop('{{#each a}}{{{../s}}}{{/each}}', { a: big, s: 'x'.repeat(100_000) });
  assert.equal(output.kind, 'output');
  const text = stop(`{{#each a}}${'static '.repeat(2000)}{{/each}}`, { a: big });
  assert.equal(text.kind, 'output', 'literal text is counted each time its block runs');
  const escaped = stop('{{#each a}}{{../s}}{{/each}}', { a: big.slice(0, 200), s: '<'.repeat(20_000) });
  assert.equal(escaped.kind, 'output', 'what is written is counted after escaping (4 characters per <)');
  assert.ok(performance.now() - started < 20_000, 'stopped, not run to its end');
  const small = { steps: 10, chars: 1000 };
  assert.equal(stop('{{#each a}}{{this}}{{/each}}', { a: big }, small).kind, 'steps');
  assert.equal(render('{{#each a}}{{this}}{{/each}}', { a: [1, 2, 3] }, 'html', small), '123');
});

test('nothing reaches the prototype chain: denied names render as nothing, __proto__ keys are data', () => {
  assert.equal(
    render('[{{name.toUpperCase}}][{{list.map}}][{{name.length}}][{{list.length}}]', { name: 'ada', list: [1, 2] }),
    '[][][3][2]',
  );
  const vars = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": {"__proto__": {"b": 1}}}') as Record<
    string,
    unknown
  >;
  assert.equal(
    render(
      '[{{#if polluted}}{{polluted}}{{/if}}][{{#each this}}{{@key}};{{/each}}][{{#with a}}{{#if b}}{{b}}{{/if}}{{/with}}]',
      vars,
    ),
    '[][__proto__;a;][]',
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'b'), false);
});

test('a helper outside a render refuses to run; renders do not nest', () => {
  const compiled = compilePart('html', parsePart('html', '{{x}}'));
  assert.throws(() => renderPart(compiled, { x: 1 }), /outside a render/);
  assert.throws(() => withBudget(FULL_BUDGET, () => withBudget(FULL_BUDGET, () => 1)), /do not nest/);
});

test('missingVariable: a needed path absent, or through a value that is not an object', () => {
  const need = [
    ['user', 'name'],
    ['order', 'items', '0', 'sku'],
  ];
  assert.equal(missingVariable(need, { user: { name: 'A' }, order: { items: [{ sku: 1 }] } }), null);
  assert.equal(missingVariable(need, { user: { name: null }, order: { items: [{ sku: 0 }] } }), null, 'null is given');
  assert.equal(missingVariable(need, { user: {} }), 'user.name');
  assert.equal(missingVariable(need, { user: 'Ada' }), 'user.name');
  assert.equal(missingVariable(need, { user: { name: 'A' }, order: { items: [] } }), 'order.items.0.sku');
  assert.equal(missingVariable([['toString']], {}), 'toString', 'inherited properties are not given');
});

test('renderVersion: every part under one budget; the subject trimmed and checked; an empty body refused', () => {
  const version = compileVersion({
    subject: '  Order {{n}}  ',
    html: '{{#if h}}<p>{{n}}</p>{{/if}}',
    text: '{{#if t}}{{n}}{{/if}}',
  });
  assert.deepEqual(renderVersion(version, { n: 1, h: true }, { skipSubject: false, budget: FULL_BUDGET }), {
    ok: true,
    subject: 'Order 1',
    html: '<p>1</p>',
    text: null,
  });
  const empty = renderVersion(version, { n: 1 }, { skipSubject: false, budget: FULL_BUDGET });
  assert.deepEqual(empty.ok ? null : empty.failure.kind, 'empty');
  const skipped = renderVersion(version, { n: 1, t: true }, { skipSubject: true, budget: FULL_BUDGET });
  assert.deepEqual(skipped, { ok: true, subject: null, html: null, text: '1' });
  const blank = compileVersion({ subject: '{{s}}', text: 'x', html: null });
  const out = renderVersion(blank, { s: '   ' }, { skipSubject: false, budget: FULL_BUDGET });
  assert.equal(out.ok ? null : out.failure.kind, 'subject');
  const long = renderVersion(blank, { s: 'x'.repeat(999) }, { skipSubject: false, budget: FULL_BUDGET });
  assert.match(long.ok ? '' : long.failure.message, /999 characters, over 998/);
  const missing = renderVersion(version, {}, { skipSubject: false, budget: FULL_BUDGET });
  assert.deepEqual(missing.ok ? null : [missing.failure.kind, missing.failure.path], ['missing', 'n']);
});
