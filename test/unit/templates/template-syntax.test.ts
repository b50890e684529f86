// Reading template parts at save time (src/templates/template-syntax.ts): errors with their line
// and column, the subset refused, the variables listed, and a rewrite that renders exactly what
// Handlebars itself renders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Handlebars from 'handlebars';
import { parsePart, TemplateSyntaxError } from '../../../src/templates/template-syntax.js';
import { compilePart, renderPart, withBudget } from '../../../src/templates/template-runtime.js';
import { FULL_BUDGET } from '../../../src/templates/render-version.js';

function refusal(source: string, part: 'html' | 'text' | 'subject' = 'html'): TemplateSyntaxError {
  try {
    parsePart(part, source);
  } catch (err) {
    if (err instanceof TemplateSyntaxError) return err;
    throw err;
  }
  assert.fail(`accepted: ${source}`);
}

// The parser's own errors carry no position; template-syntax.ts reads it from the parser's lexer
// (Handlebars.Parser.lexer.yylloc). These pin it, so an upgrade that moves it fails here.
test('parse errors name the line and column (from 1) of the offending token', () => {
  const cases: [string, number, number, RegExp][] = [
    ['<p>\n{{#if a}}x', 2, 11, /end of the part: is a \{\{\/…\}\} missing\?/],
    ['one\ntwo {{name}\nthree', 2, 11, /text inside \{\{…\}\}/],
    ['{{}}', 1, 3, /unexpected \}\}/],
    ['a\nb\n  {{#if x}}{{else}}{{else}}{{/if}}', 3, 20, /unexpected \{\{else\}\}/],
    ['{{a b=}}', 1, 7, /unexpected \}\}/],
    ['x\n\n {{#each items}}\n{{/if}}', 3, 5, /\{\{#each\}\} is closed by \{\{\/if\}\}/],
  ];
  for (const [source, line, column, message] of cases) {
    const err = refusal(source);
    assert.equal(err.part, 'html');
    assert.deepEqual([err.line, err.column], [line, column], `${JSON.stringify(source)}: ${err.message}`);
    assert.match(err.message, message);
    assert.ok(err.message.startsWith(`html: line ${line}, column ${column}: `), err.message);
  }
});

test('everything outside the documented subset is refused, naming where', () => {
  const cases: [string, RegExp][] = [
    ['{{constructor.constructor "return process"}}', /only helpers take arguments/],
    ['{{constructor}}', /"constructor" cannot be used/],
    ['{{this.__proto__.x}}', /"__proto__" cannot be used/],
    ['{{#each items}}{{prototype}}{{/each}}', /"prototype" cannot be used/],
    ['{{a.__defineGetter__}}', /"__defineGetter__" cannot be used/],
    ['{{> header}}', /partials/],
    ['{{#> layout}}x{{/layout}}', /partials/],
    ['{{#*inline "x"}}y{{/inline}}', /decorators/],
    ['{{* deco}}', /decorators/],
    ['{{log "x"}}', /log is not a helper/],
    ['{{lookup a "b"}}', /lookup is not a helper/],
    ['{{__e x}}', /__e is not a helper/],
    ['{{__s 5}}', /__s is not a helper/],
    ['{{#custom x}}y{{/custom}}', /\{\{#custom\}\} is not a block helper/],
    ['{{^items}}none{{/items}}', /\{\{#items\}\} is not a block helper/],
    ['{{{{raw}}}}{{x}}{{{{/raw}}}}', /\{\{#raw\}\} is not a block helper/],
    ['{{if a}}', /if is a block helper/],
    ['{{#eq a b}}x{{/eq}}', /not a block helper/],
    ['{{#if}}x{{/if}}', /#if takes exactly one value, got 0/],
    ['{{#if a b}}x{{/if}}', /#if takes exactly one value, got 2/],
    ['{{#if a foo=1}}x{{/if}}', /#if takes no foo=/],
    ['{{#each (eq a b)}}x{{/each}}', /#each takes a variable/],
    ['{{#each @index}}x{{/each}}', /#each takes a variable, not @index/],
    ['{{#each a as |x y z|}}{{/each}}', /at most two block parameters/],
    ['{{#if a as |x|}}{{/if}}', /names no block parameters/],
    ['{{eq a}}', /eq compares two values/],
    ['{{default a}}', /default takes a value and its fallback/],
    ['{{date a}}', /date takes a value and a quoted format/],
    ['{{date a b}}', /date takes a value and a quoted format/],
    ['{{date a ""}}', /date takes a value and a quoted format/],
    ['{{date a "YYYY" zone="UTC"}}', /date takes only tz=/],
    ['{{date a "YYYY" tz="Nowhere/Land"}}', /not an IANA time zone/],
    ['{{eq a b x=1}}', /eq takes no name=value options/],
    ['{{(lookup a b)}}', /unexpected \(/],
    ['{{#if (custom a)}}x{{/if}}', /custom is not a helper/],
    ['{{#if (if a)}}x{{/if}}', /\(if …\) calls no value helper/],
    ['{{@foo}}', /@foo is not a data variable/],
    ['{{../x}}', /goes above the top of the variables/],
    ['{{#each a}}{{../../x}}{{/each}}', /goes above the top of the variables/],
    ['{{"text"}}', /a literal cannot be written/],
    ['{{a.b c}}', /only helpers take arguments, and a\.b is not one/],
    [`${'{{#if a}}'.repeat(33)}x${'{{/if}}'.repeat(33)}`, /nest more than 32 deep/],
    [`${'{{#if a}}'.repeat(20_000)}${'{{/if}}'.repeat(20_000)}`, /nest more than 32 deep/],
    [`{{#if a}}${'{{else if b}}x'.repeat(32)}{{/if}}`, /nest more than 32 deep \(\{\{else if\}\} counts as one more\)/],
    [`{{eq ${'(eq '.repeat(33)}x${' y)'.repeat(33)} z}}`, /helpers nest more than 32 deep/],
    ['<p>{{a}}</p>\n'.repeat(2001), /more than 2000 \{\{…\}\} tags/],
    [`{{eq a "${'x'.repeat(70_000)}"}}`, /tags of this part hold more than 65536 characters/],
  ];
  for (const [source, message] of cases) {
    const started = performance.now();
    const err = refusal(source);
    // Refused before Handlebars' parser spends its time on it (20,000 nested blocks take it minutes).
    assert.ok(performance.now() - started < 2_000, `${source.slice(0, 40)} took ${performance.now() - started} ms`);
    assert.match(err.message, message, source.slice(0, 80));
    assert.match(err.message, /^html: line \d+, column \d+: /);
  }
});

test('the limits leave room for real templates: 2,000 tags, 32 levels, an escaped \\{{ is text', () => {
  assert.equal(parsePart('html', '<p>{{a}}</p>\n'.repeat(2000)).variables.length, 1);
  parsePart('html', `${'{{#if a}}'.repeat(32)}x${'{{/if}}'.repeat(32)}`);
  parsePart('html', `{{#if a}}${'{{else if b}}x'.repeat(31)}{{/if}}`);
  parsePart('html', `${'\\{{#x}}'.repeat(100)} {{!-- ${'{{#if a}}'.repeat(100)} --}}`);
});

test('the variables a part uses are listed, with which are needed (outside every guard)', () => {
  const cases: [string, string[], string[]][] = [
    ['Hi {{user.name}}', ['user.name'], ['user.name']],
    ['{{#if user}}{{user.name}}{{else}}{{guest}}{{/if}}', ['guest', 'user', 'user.name'], []],
    ['{{#unless paid}}{{due}}{{/unless}}', ['due', 'paid'], []],
    [
      '{{#each order.items as |item i|}}{{i}} {{item.name}} {{price}} {{@index}} {{../currency}} {{@root.shop}}{{/each}}',
      ['currency', 'order.items', 'order.items[].name', 'order.items[].price', 'shop'],
      [],
    ],
    ['{{#each rows}}{{#each cells}}{{this}}{{/each}}{{/each}}', ['rows', 'rows[].cells', 'rows[].cells[]'], []],
    ['{{#with user}}{{name}} {{../site}}{{/with}}', ['site', 'user', 'user.name'], ['user', 'user.name', 'site']],
    ['{{#with user as |u|}}{{u.name}}{{/with}}', ['user', 'user.name'], ['user', 'user.name']],
    ['{{#with user}}{{name}}{{else}}guest{{/with}}', ['user', 'user.name'], []],
    ['{{default nickname "friend"}} {{default a b}}', ['a', 'b', 'nickname'], ['b']],
    ['{{#if (eq status "paid")}}ok{{/if}} {{eq x y}}', ['status', 'x', 'y'], ['x', 'y']],
    ['{{date order.at "YYYY"}}', ['order.at'], ['order.at']],
    ['{{this.date}} {{./x}} {{[odd key]}}', ['date', 'odd key', 'x'], ['date', 'x', 'odd key']],
    ['{{this}} {{@root}} {{!-- {{comment}} --}}', [], []],
  ];
  for (const [source, variables, required] of cases) {
    const parsed = parsePart('html', source);
    assert.deepEqual(parsed.variables, variables, source);
    assert.deepEqual(
      parsed.required.map((p) => p.join('.')),
      required,
      source,
    );
  }
});

test('the rewritten tree renders exactly what Handlebars renders (whitespace control, else chains, data, block params)', () => {
  const plain = Handlebars.create();
  plain.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  plain.registerHelper('default', (v: unknown, f: unknown) => (v === undefined || v === null || v === '' ? f : v));
  const vars = {
    name: 'Ada & <Bob>',
    raw: '<b>bold</b>',
    n: 0,
    t: true,
    f: false,
    list: ['a', 'b"', "c'"],
    empty: [],
    obj: { x: 1, y: { z: 'deep' } },
    items: [
      { name: 'one', price: '$1', tags: ['x', 'y'] },
      { name: 'two', price: '$2', tags: [] },
    ],
    arr: [1, [2, 3], null],
  };
  const sources = [
    'Hello {{name}}! {{{raw}}} {{raw}}',
    '{{#if t}}\n  yes\n{{else if f}}\n  no\n{{else}}\n  neither\n{{/if}}\nafter',
    '<ul>\n  {{#each items as |item i|}}\n  <li>{{i}}/{{@index}} {{item.name}} {{price}} {{#if @first}}first{{/if}}{{#if @last}}last{{/if}}</li>\n  {{else}}\n  <li>none</li>\n  {{/each}}\n</ul>',
    '{{#each empty}}x{{else}}empty{{/each}} {{#each obj}}{{@key}}={{this}};{{/each}}',
    '{{#with obj}}{{x}} {{y.z}} {{../name}}{{/with}} {{#with missing}}x{{else}}no{{/with}}',
    'a {{~name~}} b\n  {{~#if t~}}  c  {{~/if~}}\n d',
    '{{#each items}}{{name}}: {{#each tags}}{{this}}{{#unless @last}}, {{/unless}}{{else}}-{{/each}}\n{{/each}}',
    '{{default missing "fallback"}} {{default n "x"}} {{default f "x"}} {{#if (eq n 0)}}zero{{/if}}',
    '{{#unless n includeZero=true}}falsy{{else}}zero counts{{/unless}} {{#if n includeZero=true}}yes{{/if}}',
    '{{arr}} {{obj}} {{n}} {{t}} {{f}} {{list}} {{list.length}} {{list.[1]}} {{obj.y.z}}',
    '{{! comment }}{{!-- {{long}} comment --}}\n{{#each list}}\n{{this}}\n{{/each}}',
    '{{#each items}}{{#each tags}}{{../name}}-{{this}} {{@root.name}} {{/each}}{{/each}}',
  ];
  for (const source of sources) {
    const expected = plain.compile(source)(vars);
    const got = withBudget(FULL_BUDGET, () => renderPart(compilePart('html', parsePart('html', source)), vars));
    assert.equal(got, expected, source);
  }
});
