import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';
import { composeDraft } from '../../../src/send/message-draft.js';
import { renderMime, textFromHtml } from '../../../src/send/render-mime.js';

const base = {
  id: 'msg_01JD0000000000000000000000', hostname: 'mail.posthorn.test', now: Date.UTC(2026, 10, 21, 12, 0, 0),
  from: { name: 'Acme Büro', address: 'hello@acme.test', local: 'hello', domain: 'acme.test' },
  to: [{ name: '', address: 'user@example.org', local: 'user', domain: 'example.org' }],
  subject: 'Ihre Bestätigung ✓', headers: [['Reply-To', 'help@acme.test'], ['X-Order', '42']] as [string, string][],
};

test('text is generated from html when omitted (spec 4.1)', () => {
  const text = textFromHtml('<h1>Welcome</h1><p>Click <a href="https://acme.test/go">here</a> to start.</p>');
  assert.match(text, /WELCOME/);
  assert.match(text, /Click here \[https:\/\/acme\.test\/go\] to start\./);
});

test('a rendered message parses back with every header and both alternatives', async () => {
  const html = `<p>${'Long paragraph without breaks. '.repeat(100)}</p>`;
  const raw = renderMime(composeDraft({ ...base, html, text: null }));
  const lines = raw.toString('latin1').split('\r\n');
  assert.ok(lines.every((l) => Buffer.byteLength(l, 'latin1') <= 998), 'RFC 5322 §2.1.1 line length');
  const head = raw.toString('latin1').split('\r\n\r\n')[0] as string;
  assert.match(head, /^Subject: .*=\?UTF-8\?Q\?/m, 'non-ASCII subject is RFC 2047 encoded');
  assert.ok([...head].every((c) => c.charCodeAt(0) < 0x80), 'the header section is pure ASCII');
  assert.match(head, /^From: .*=\?UTF-8\?Q\?.*<hello@acme\.test>$/m);
  const parsed = await simpleParser(raw);
  assert.equal(parsed.subject, base.subject);
  assert.equal(parsed.messageId, '<msg_01JD0000000000000000000000@mail.posthorn.test>');
  assert.equal(parsed.from?.value[0]?.name, 'Acme Büro');
  assert.equal(parsed.headers.get('x-order'), '42');
  assert.equal(parsed.replyTo?.value[0]?.address, 'help@acme.test');
  assert.equal(parsed.date?.toISOString(), '2026-11-21T12:00:00.000Z');
  assert.match(parsed.text ?? '', /Long paragraph without breaks\./);
  assert.match(parsed.html || '', /<p>Long paragraph/);
});

test('a text-only message is a single text/plain part', async () => {
  const raw = renderMime(composeDraft({ ...base, html: null, text: 'Hello there' }));
  const parsed = await simpleParser(raw);
  assert.equal(parsed.text?.trim(), 'Hello there');
  assert.equal(parsed.html, false);
  assert.match(raw.toString(), /^Content-Type: text\/plain/m);
});

test('display names with specials are quoted, and long ASCII bodies are quoted-printable', async () => {
  const raw = renderMime(composeDraft({ ...base, from: { ...base.from, name: 'Acme, Inc. "Support"' }, html: null, text: `${'a'.repeat(300)}\nshort` }));
  const parsed = await simpleParser(raw);
  assert.equal(parsed.from?.value[0]?.name, 'Acme, Inc. "Support"');
  assert.match(raw.toString(), /^Content-Transfer-Encoding: quoted-printable$/m);
  assert.equal(parsed.text?.trim(), `${'a'.repeat(300)}\nshort`);
});

test('a part over 64 KiB that needs encoding is base64 in 76-character lines, small ones stay quoted-printable', async () => {
  const html = `<p>${'Ein langer Absatz ohne Umbruch — déjà vu. '.repeat(4000)}</p>`;
  const raw = renderMime(composeDraft({ ...base, html, text: 'Kurz: déjà vu.' }));
  const s = raw.toString('latin1');
  assert.match(s, /Content-Type: text\/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n/);
  assert.match(s, /Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n/);
  assert.ok(s.split('\r\n').every((l) => l.length <= 76 || /^(Content-Type|Subject|From|To|Message-ID|X-Order):/.test(l)), 'RFC 2045 §6.8 line length');
  const parsed = await simpleParser(raw);
  assert.equal(parsed.html, html);
  assert.equal(parsed.text, 'Kurz: déjà vu.');
});
