import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  DANGEROUS_EXTENSIONS,
  DANGEROUS_TYPES,
  MAX_ATTACHMENTS,
  validateAttachments,
  type Attachment,
} from '../../../src/send/attachments.js';
import type { ApiError } from '../../../src/core/api-errors.js';

const ok = (input: unknown): Attachment[] => {
  const out = validateAttachments(input);
  assert.ok(Array.isArray(out), JSON.stringify(out));
  return out;
};
const refused = (input: unknown): ApiError => {
  const out = validateAttachments(input);
  assert.ok(!Array.isArray(out), `accepted: ${JSON.stringify(input).slice(0, 200)}`);
  assert.equal(out.type, 'invalid_request');
  return out;
};

test('base64 is made canonical: line breaks dropped, padding added; the size is the decoded bytes', () => {
  const bytes = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
  const b64 = bytes.toString('base64');
  const wrapped = (b64.match(/.{1,76}/g) ?? []).join('\r\n');
  const [a, b, c] = ok([
    { filename: 'a.bin', content: wrapped },
    { filename: 'b.bin', content: b64.replace(/=+$/, '') },
    { filename: 'c.bin', content: '' },
  ]);
  assert.equal(a?.content, b64);
  assert.equal(a?.size, 100);
  assert.equal(b?.content, b64);
  assert.equal(c?.size, 0);
  assert.equal(a?.digest, createHash('sha256').update(b64).digest('hex'));
  assert.equal(ok([{ filename: 'x', content: 'QQ' }])[0]?.size, 1);
  assert.equal(ok([{ filename: 'x', content: 'QUI' }])[0]?.size, 2);
});

test('bad base64 is refused naming attachments[i].content: other characters, base64url, stray padding, a lone character', () => {
  const cases: [string, RegExp][] = [
    ['aGVsbG8*', /"\*" at position 8/],
    ['aGV-bG8_', /base64url is not accepted/],
    ['aG=Vsb', /padding/],
    ['aGVsbG8=A', /padding/],
    ['aGVsb', /5 characters/],
    ['QQ=', /3 characters/],
  ];
  for (const [content, message] of cases) {
    const e = refused([
      { filename: 'ok.txt', content: 'QQ==' },
      { filename: 'x.txt', content },
    ]);
    assert.equal(e.field, 'attachments[1].content', content);
    assert.match(e.message, message, content);
  }
  assert.equal(refused([{ filename: 'x.txt' }]).field, 'attachments[0].content');
  assert.equal(refused([{ filename: 'x.txt', content: 42 }]).field, 'attachments[0].content');
});

test('every listed extension is refused, whatever its case and trailing dots or spaces; the field is the filename', () => {
  for (const ext of DANGEROUS_EXTENSIONS) {
    for (const name of [`setup.${ext}`, `Invoice.pdf.${ext.toUpperCase()}`, `x.${ext}. .`]) {
      const e = refused([{ filename: name, content: 'QQ==' }]);
      assert.equal(e.field, 'attachments[0].filename', name);
      assert.match(e.message, /dangerous/);
    }
  }
  for (const name of ['setup.exe.txt', 'notes.json', 'exe', 'archive.zip', 'photo.jpeg'])
    assert.equal(ok([{ filename: name, content: 'QQ==' }]).length, 1, name);
});

test('every listed media type is refused, parameters and case aside; so are multipart and message types', () => {
  for (const type of [...DANGEROUS_TYPES, 'Application/X-MSDownload; foo=bar']) {
    const e = refused([{ filename: 'harmless.pdf', content: 'QQ==', content_type: type }]);
    assert.equal(e.field, 'attachments[0].content_type', type);
  }
  for (const type of ['multipart/mixed; boundary=x', 'message/rfc822'])
    assert.equal(
      refused([{ filename: 'a.eml', content: 'QQ==', content_type: type }]).field,
      'attachments[0].content_type',
    );
  for (const type of ['pdf', 'text/', '/plain', 'text/plain; charset', 'a b/c', 'x'.repeat(199) + '/y'])
    assert.equal(
      refused([{ filename: 'a.txt', content: 'QQ==', content_type: type }]).field,
      'attachments[0].content_type',
    );
});

test('the type comes from the file name when not given; a message or multipart type is never inferred', () => {
  const [pdf, eml, unknown, given] = ok([
    { filename: 'Report.PDF', content: 'QQ==' },
    { filename: 'forwarded.eml', content: 'QQ==' },
    { filename: 'data', content: 'QQ==', content_type: null },
    { filename: 'rows.csv', content: 'QQ==', content_type: 'Text/CSV; charset="utf-8"' },
  ]);
  assert.equal(pdf?.contentType, 'application/pdf');
  assert.equal(eml?.contentType, 'application/octet-stream');
  assert.equal(unknown?.contentType, 'application/octet-stream');
  assert.equal(given?.contentType, 'text/csv; charset="utf-8"');
});

test('file names: required, 1 to 255 characters, no control characters, no path; non-ASCII is fine', () => {
  assert.equal(
    ok([{ filename: 'Überweisung März — 2026 ✓.pdf', content: 'QQ==' }])[0]?.filename,
    'Überweisung März — 2026 ✓.pdf',
  );
  for (const filename of [
    undefined,
    7,
    '',
    '   ',
    'a'.repeat(256),
    'bad\nname.txt',
    'tab\there.txt',
    '../etc/passwd',
    'C:\\x.txt',
  ])
    assert.equal(refused([{ filename, content: 'QQ==' }]).field, 'attachments[0].filename', String(filename));
});

test('content ids: a dot-atom with @ without brackets, unique in the message (case-insensitively)', () => {
  const [a] = ok([{ filename: 'logo.png', content: 'QQ==', content_id: 'logo.v2@acme.example' }]);
  assert.equal(a?.contentId, 'logo.v2@acme.example');
  for (const id of ['<logo@acme>', 'has space', '', 'x'.repeat(201), 5])
    assert.equal(
      refused([{ filename: 'logo.png', content: 'QQ==', content_id: id }]).field,
      'attachments[0].content_id',
      String(id),
    );
  const twice = refused([
    { filename: 'a.png', content: 'QQ==', content_id: 'Logo@acme' },
    { filename: 'b.png', content: 'QQ==', content_id: 'logo@ACME' },
  ]);
  assert.equal(twice.field, 'attachments[1].content_id');
});

test('the array: null is none; not an array, not an object, an unknown key, or more than the maximum are refused', () => {
  assert.deepEqual(ok(null), []);
  assert.equal(refused({ filename: 'a' }).field, 'attachments');
  assert.equal(refused(['QQ==']).field, 'attachments[0]');
  assert.equal(refused([{ filename: 'a.txt', content: 'QQ==', size: 1 }]).field, 'attachments[0].size');
  const many = Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => ({ filename: `f${i}.txt`, content: 'QQ==' }));
  assert.equal(refused(many).field, 'attachments');
  assert.equal(ok(many.slice(1)).length, MAX_ATTACHMENTS);
});

test('padding alone or three of it is refused; unused bits in the last character are tolerated (RFC 4648 §3.5)', () => {
  for (const content of ['====', 'A===', 'QQ==QQ=='])
    assert.match(refused([{ filename: 'x.txt', content }]).message, /padding/, content);
  const [a] = ok([{ filename: 'x.txt', content: 'QR==' }]);
  assert.equal(a?.size, 1);
});
