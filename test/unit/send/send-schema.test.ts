// POST /v1/send validates its raw body by hand (src/send/validate-send-json.ts), not with the
// OpenAPI schema that documents it (src/http/schemas/send.ts): this test keeps the two in step.
// Whatever the validator accepts, the schema must accept (a client that validates against the
// document never refuses a body the server takes), and known bad bodies fail both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateSendJson } from '../../../src/send/validate-send-json.js';
import { SendBody } from '../../../src/http/schemas/send.js';
import { requestAjv } from '../../../src/http/openapi.js';

const schema = requestAjv(false).compile(SendBody as object);
const pipeline = (body: unknown) => validateSendJson('application/json', Buffer.from(JSON.stringify(body), 'utf8'));
const accepted = (body: unknown) => !('type' in pipeline(body));
const fits = (body: unknown) => schema(JSON.parse(JSON.stringify(body)));

/** Short strings, and now and then one of exactly `max` characters: the edge a schema must not cut. */
const upTo = (max: number, min = 0) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 20) }) },
    { weight: 1, arbitrary: fc.string({ minLength: max, maxLength: max }) },
  );

/** Mostly a good value, now and then one of `odd` (of the wrong type or shape, or out of range) or any JSON. */
const mostly = <T>(good: fc.Arbitrary<T>, ...odd: unknown[]) =>
  fc.oneof(
    { weight: 30, arbitrary: good },
    { weight: 1, arbitrary: fc.constantFrom(...odd) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );

const mailbox = mostly(
  fc.constantFrom('a@example.org', 'Bob <bob@example.net>', '"Lee, Ann" <ann@example.org>', 'C@Example.ORG'),
  'bad@',
  '',
  'two@a.org, b@b.org',
);
const addresses = mostly(
  fc.oneof(mailbox, fc.array(mailbox, { maxLength: 4 })),
  null,
  [],
  Array.from({ length: 50 }, (_, i) => `u${i}@example.org`),
  Array.from({ length: 51 }, (_, i) => `u${i}@example.org`),
);
const base64 = fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b).toString('base64'));
const attachment = fc.record(
  {
    filename: mostly(
      fc.constantFrom('a.pdf', 'Résumé März.txt', 'logo.png', `${'x'.repeat(251)}.txt`, `Zoë ${'ü'.repeat(247)}.txt`),
      '',
      'run.exe',
      'a/b.txt',
    ),
    content: mostly(base64, 'not base64!', 'QQ', 'aGV-bG8_'),
    content_type: mostly(
      fc.constantFrom('application/pdf', 'image/png', 'text/csv; charset=utf-8', null),
      'pdf',
      'message/rfc822',
    ),
    content_id: mostly(fc.constantFrom('logo@acme', 'img1', null), '<x>', 'has space', ''),
  },
  { requiredKeys: ['filename', 'content'] },
);
const text = fc.string({ minLength: 1, maxLength: 80 });
const fields = fc.record(
  {
    from: mostly(fc.constantFrom('a@acme.test', 'Acme <hello@acme.test>'), 5, null, 'bad'),
    to: addresses,
    cc: addresses,
    bcc: addresses,
    reply_to: addresses,
    subject: mostly(
      fc.constantFrom('Hi', 'Your order — ✓', '  padded  ', 'x'.repeat(998)),
      '',
      '   ',
      'a\r\nb',
      'x'.repeat(999),
    ),
    html: mostly(fc.oneof(text, fc.constant(null), fc.constant('')), 5),
    text: mostly(fc.oneof(text, fc.constant(null)), {}),
    attachments: mostly(fc.oneof(fc.constant(null), fc.array(attachment, { maxLength: 3 })), {}, 'a.pdf'),
    tags: mostly(fc.array(upTo(100, 1), { maxLength: 4 }), 'receipt', [''], ['x'.repeat(101)]),
    metadata: mostly(
      fc.oneof(
        fc.constant(null),
        fc.dictionary(upTo(40, 1), upTo(500), { maxKeys: 5 }),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), fc.constant('v'), { minKeys: 20, maxKeys: 20 }),
      ),
      [],
      { n: 5 },
      { nested: { a: 'b' } },
      { ['k'.repeat(41)]: 'v' },
    ),
    headers: mostly(
      fc.dictionary(fc.constantFrom('X-Order', 'X-Campaign', 'x-entity-ref-id', `X-${'N'.repeat(74)}`), upTo(2000), {
        maxKeys: 3,
      }),
      null,
      ['X-A: 1'],
      { 'X-A': 1 },
      { 'Reply-To': 'a@example.org' },
      { 'X A': '1' },
    ),
    track_opens: mostly(fc.constantFrom(true, false, null), 'yes', 1),
    track_clicks: mostly(fc.constantFrom(true, false, null), 'no'),
    unsubscribe: mostly(fc.constantFrom(true, false, null), 0),
  },
  { requiredKeys: ['from', 'to', 'subject'] },
);
/** A body: the fields, now and then with an unknown one added. */
const body = fc
  .tuple(fields, fc.integer({ min: 0, max: 39 }))
  .map(([b, n]) => (n === 0 ? { ...b, unknown_field: 'x' } : (b as Record<string, unknown>)));

test('every body the send validator accepts, the OpenAPI schema accepts (fast-check)', () => {
  let taken = 0;
  let refused = 0;
  fc.assert(
    fc.property(body, (b) => {
      if (!accepted(b)) {
        refused++;
        return;
      }
      taken++;
      assert.ok(
        fits(b),
        `the validator accepted, the schema refused: ${JSON.stringify(schema.errors)}\n${JSON.stringify(b).slice(0, 1500)}`,
      );
    }),
    { numRuns: 1500 },
  );
  // The property is only worth something when both sides of it were reached often.
  assert.ok(taken >= 100, `only ${taken} generated bodies were accepted`);
  assert.ok(refused >= 50, `only ${refused} generated bodies were refused`);
});

test('known bad bodies fail both the validator and the schema', () => {
  const good = { from: 'a@acme.test', to: 'b@example.org', subject: 'Hi', html: '<p>Hi</p>' };
  const file = { filename: 'a.pdf', content: 'QQ==' };
  const bad: [string, Record<string, unknown>][] = [
    ['no from', { ...good, from: undefined }],
    ['no to', { ...good, to: undefined }],
    ['no subject', { ...good, subject: undefined }],
    ['a template as a string', { ...good, html: undefined, template: 'welcome' }],
    ['a template with another field', { ...good, html: undefined, template: { name: 'welcome', vars: {} } }],
    ['a template name not a slug', { ...good, html: undefined, template: { name: 'Welcome!' } }],
    ['template variables as a list', { ...good, html: undefined, template: { name: 'w', variables: [1] } }],
    ['variables beside the template', { ...good, html: undefined, template: { name: 'w' }, variables: {} }],
    ['an unknown field', { ...good, ccc: 'x@example.org' }],
    ['from a number', { ...good, from: 5 }],
    ['to empty', { ...good, to: [] }],
    ['to 51', { ...good, to: Array.from({ length: 51 }, (_, i) => `u${i}@example.org`) }],
    ['cc 51', { ...good, cc: Array.from({ length: 51 }, (_, i) => `u${i}@example.org`) }],
    ['bcc an object', { ...good, bcc: { a: 'b@example.org' } }],
    ['reply_to a number', { ...good, reply_to: 1 }],
    ['html a number', { ...good, html: 5 }],
    ['tags a string', { ...good, tags: 'receipt' }],
    ['21 tags', { ...good, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }],
    ['a tag of 101', { ...good, tags: ['x'.repeat(101)] }],
    ['metadata an array', { ...good, metadata: ['a'] }],
    ['metadata a number value', { ...good, metadata: { n: 5 } }],
    ['metadata nested', { ...good, metadata: { n: { m: 'x' } } }],
    [
      'metadata 21 keys',
      { ...good, metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) },
    ],
    ['metadata key of 41', { ...good, metadata: { ['k'.repeat(41)]: 'v' } }],
    ['metadata value of 501', { ...good, metadata: { k: 'v'.repeat(501) } }],
    ['metadata empty key', { ...good, metadata: { '': 'v' } }],
    ['headers an array', { ...good, headers: ['X-A: 1'] }],
    ['a header value a number', { ...good, headers: { 'X-A': 1 } }],
    ['a header name with a space', { ...good, headers: { 'X A': '1' } }],
    ['a header value of 2001', { ...good, headers: { 'X-A': 'v'.repeat(2001) } }],
    ['51 headers', { ...good, headers: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v'])) }],
    ['attachments an object', { ...good, attachments: file }],
    ['an attachment without filename', { ...good, attachments: [{ content: 'QQ==' }] }],
    ['an attachment without content', { ...good, attachments: [{ filename: 'a.pdf' }] }],
    ['an attachment with an unknown key', { ...good, attachments: [{ ...file, size: 1 }] }],
    ['an attachment filename of 256', { ...good, attachments: [{ ...file, filename: `${'x'.repeat(252)}.pdf` }] }],
    ['a content_id in brackets', { ...good, attachments: [{ ...file, content_id: '<a@b>' }] }],
    ['101 attachments', { ...good, attachments: Array.from({ length: 101 }, () => file) }],
    ['track_opens a string', { ...good, track_opens: 'yes' }],
    ['unsubscribe a number', { ...good, unsubscribe: 1 }],
  ];
  for (const [what, b] of bad) {
    assert.equal(accepted(b), false, `the validator accepted ${what}`);
    assert.equal(fits(b), false, `the schema accepted ${what}`);
  }
  assert.ok(accepted(good) && fits(good), 'the good body passes both');
  const full = {
    ...good,
    cc: ['Carol <carol@example.org>'],
    bcc: 'hidden@example.org',
    reply_to: ['help@acme.test'],
    text: 'Hi',
    attachments: [
      file,
      { filename: 'logo.png', content: 'iVBORw0KGgo=', content_type: 'image/png', content_id: 'logo@acme' },
    ],
    tags: ['receipt'],
    metadata: { order_id: '4711' },
    headers: { 'X-Order': '4711' },
    track_opens: false,
    track_clicks: null,
    unsubscribe: true,
  };
  assert.ok(accepted(full) && fits(full), 'a body with every field passes both');
  for (const example of (SendBody as { examples?: unknown[] }).examples ?? [])
    assert.ok(
      accepted(example) && fits(example),
      `the documented example passes both: ${JSON.stringify(pipeline(example))}`,
    );
});

test('a send with a template (docs/templates.md) passes both, with or without its own subject', () => {
  const base = { from: 'a@acme.test', to: 'b@example.org' };
  for (const body of [
    { ...base, template: { name: 'welcome' } },
    { ...base, template: { name: 'welcome', version: 3, variables: { user: { first_name: 'Ana' } } } },
    { ...base, subject: 'Welcome', template: { name: 'receipt_v2', version: null, variables: null } },
  ]) {
    assert.ok(accepted(body), `validator: ${JSON.stringify(pipeline(body))}`);
    assert.ok(fits(body), `schema: ${JSON.stringify(schema.errors)}`);
  }
});
