// The starter templates (src/templates/examples/, docs/templates.md): each is a valid template,
// renders with its sample variables and with only what it needs, and its HTML passes html-validate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HtmlValidate } from 'html-validate';
import { EXAMPLE_TEMPLATES } from '../../../src/templates/examples/index.js';
import { checkTemplateTask } from '../../../src/templates/check-template.js';
import { compileVersion, FULL_BUDGET, missingVariable, renderVersion } from '../../../src/templates/render-version.js';
import { parsePart } from '../../../src/templates/template-syntax.js';

// html-validate's recommended rules, less two that email HTML must break: styles are inline
// because several clients drop <style> blocks, and table attributes (width, cellpadding, align)
// are what Outlook's Word engine lays out by. Everything else (structure, nesting, attributes,
// accessibility of tables and links) must pass.
const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  rules: { 'no-inline-style': 'off', 'no-deprecated-attr': 'off' },
});

test('the three starter templates exist: welcome, password-reset, receipt', () => {
  assert.deepEqual(
    EXAMPLE_TEMPLATES.map((t) => t.name),
    ['welcome', 'password-reset', 'receipt'],
  );
});

for (const t of EXAMPLE_TEMPLATES) {
  test(`${t.name}: a valid template whose sample gives every variable it uses`, () => {
    const out = checkTemplateTask(t);
    assert.ok(out.ok, JSON.stringify(out));
    for (const v of out.checked.variables) {
      const path = v.split('[]')[0]!.split('.');
      assert.equal(missingVariable([path], t.sample), null, `the sample lacks ${v}`);
    }
  });

  test(`${t.name}: renders with its sample; the HTML passes html-validate; the text part says the same`, async () => {
    const out = renderVersion(compileVersion(t), t.sample, { skipSubject: false, budget: FULL_BUDGET });
    assert.ok(out.ok, JSON.stringify(out));
    const report = await validator.validateString(out.html!);
    const messages = report.results.flatMap((r) =>
      r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`),
    );
    assert.deepEqual(messages, [], `${t.name} html:\n${messages.join('\n')}`);
    assert.ok(report.valid);
    assert.doesNotMatch(out.html!, /\{\{|\}\}/, 'no tag left unrendered');
    assert.doesNotMatch(out.text!, /\{\{|\}\}/);
    assert.match(out.html!, /<meta name="viewport"/, 'responsive: the viewport is set');
    assert.match(out.html!, /@media only screen and \(max-width: 620px\)/);
    assert.match(out.html!, /<table role="presentation"/, 'laid out with tables');
    for (const value of leaves(t.sample)) {
      if (typeof value === 'string' && !/^\d{4}-\d{2}-\d{2}/.test(value)) {
        assert.ok(out.text!.includes(value) || out.subject!.includes(value), `${t.name} text lacks ${value}`);
      }
    }
  });

  test(`${t.name}: renders with only the variables it needs`, () => {
    const version = compileVersion(t);
    const needed = new Set<string>();
    for (const part of ['subject', 'html', 'text'] as const) {
      for (const path of parsePart(part, t[part]).required) needed.add(path.join('.'));
    }
    const minimal: Record<string, unknown> = {};
    for (const path of needed) {
      const segments = path.split('.');
      let at = minimal;
      for (const s of segments.slice(0, -1)) at = (at[s] ??= {}) as Record<string, unknown>;
      at[segments[segments.length - 1]!] = segments.includes('date') ? '2026-11-25' : `<${path}>`;
    }
    if (t.name === 'receipt') (minimal.receipt as Record<string, unknown>).items = [];
    const out = renderVersion(version, minimal, { skipSubject: false, budget: FULL_BUDGET });
    assert.ok(out.ok, JSON.stringify(out));
    assert.ok(out.html!.includes('&lt;product.name&gt;'), 'values are escaped in the html');
  });
}

function leaves(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(leaves);
  return [value];
}
