import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';
import { composeDraft } from '../../../src/mime/message-draft.js';
import { findBareLineBreak } from '../../../src/delivery/smtp/bare-line-break.js';
import {
  joinPieces,
  LARGE_PART_CHARS,
  normalizedSlices,
  renderMime,
  textFromHtml,
} from '../../../src/mime/render-mime.js';

const base = {
  id: 'msg_01JD0000000000000000000000',
  hostname: 'mail.posthorn.test',
  now: Date.UTC(2026, 10, 21, 12, 0, 0),
  from: { name: 'Acme Büro', address: 'hello@acme.test', local: 'hello', domain: 'acme.test' },
  to: [{ name: '', address: 'user@example.org', local: 'user', domain: 'example.org' }],
  subject: 'Ihre Bestätigung ✓',
  headers: [
    ['Reply-To', 'help@acme.test'],
    ['X-Order', '42'],
  ] as [string, string][],
};

test('text is generated from html when omitted', () => {
  const text = textFromHtml('<h1>Welcome</h1><p>Click <a href="https://acme.test/go">here</a> to start.</p>');
  assert.match(text, /WELCOME/);
  assert.match(text, /Click here \[https:\/\/acme\.test\/go\] to start\./);
});

test('a rendered message parses back with every header and both alternatives', async () => {
  const html = `<p>${'Long paragraph without breaks. '.repeat(100)}</p>`;
  const raw = renderMime(composeDraft({ ...base, html, text: null }));
  const lines = raw.toString('latin1').split('\r\n');
  assert.ok(
    lines.every((l) => Buffer.byteLength(l, 'latin1') <= 998),
    'RFC 5322 §2.1.1 line length',
  );
  const head = raw.toString('latin1').split('\r\n\r\n')[0] as string;
  assert.match(head, /^Subject: .*=\?UTF-8\?Q\?/m, 'non-ASCII subject is RFC 2047 encoded');
  assert.ok(
    [...head].every((c) => c.charCodeAt(0) < 0x80),
    'the header section is pure ASCII',
  );
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
  const raw = renderMime(
    composeDraft({
      ...base,
      from: { ...base.from, name: 'Acme, Inc. "Support"' },
      html: null,
      text: `${'a'.repeat(300)}\nshort`,
    }),
  );
  const parsed = await simpleParser(raw);
  assert.equal(parsed.from?.value[0]?.name, 'Acme, Inc. "Support"');
  assert.match(raw.toString(), /^Content-Transfer-Encoding: quoted-printable$/m);
  assert.equal(parsed.text?.trim(), `${'a'.repeat(300)}\nshort`);
});

test('bare CR and bare LF in text and html become CRLF, in 7bit and quoted-printable parts alike', async () => {
  for (const extra of ['', ' é']) {
    const text = `one\rtwo\nthree\r\nfour\r\r\nfive${extra}`;
    const html = `<p>a\rb</p>\n<p>c${extra}</p>\r`;
    const raw = renderMime(composeDraft({ ...base, html, text }));
    assert.equal(findBareLineBreak(raw), null, `no bare CR or LF (${extra === '' ? '7bit' : 'quoted-printable'})`);
    assert.match(
      raw.toString('latin1'),
      extra === '' ? /Content-Transfer-Encoding: 7bit/ : /Content-Transfer-Encoding: quoted-printable/,
    );
    const parsed = await simpleParser(raw);
    assert.deepEqual(parsed.text?.replace(/\r\n/g, '\n').trimEnd().split('\n'), [
      'one',
      'two',
      'three',
      'four',
      '',
      `five${extra}`,
    ]);
  }
});

test('display names with non-ASCII and a comma stay ONE address in From and To (mailparser reads them back)', async () => {
  const raw = renderMime(
    composeDraft({
      ...base,
      from: { ...base.from, name: 'Ann, Bé' },
      to: [
        { name: 'Zoë, "Z" Müller', address: 'zoe@example.org', local: 'zoe', domain: 'example.org' },
        { name: 'Plain', address: 'p@example.org', local: 'p', domain: 'example.org' },
      ],
      html: null,
      text: 'hi',
    }),
  );
  const parsed = await simpleParser(raw);
  assert.deepEqual(
    parsed.from?.value.map((a) => [a.name, a.address]),
    [['Ann, Bé', 'hello@acme.test']],
  );
  const to = Array.isArray(parsed.to) ? parsed.to.flatMap((t) => t.value) : (parsed.to?.value ?? []);
  assert.deepEqual(
    to.map((a) => [a.name, a.address]),
    [
      ['Zoë, "Z" Müller', 'zoe@example.org'],
      ['Plain', 'p@example.org'],
    ],
  );
});

test('header lines stay within 998 octets: a subject without spaces is encoded, a long name too, and both read back', async () => {
  const subject = `${'x'.repeat(990)}é`;
  const longName = 'N'.repeat(300);
  const raw = renderMime(
    composeDraft({
      ...base,
      subject,
      from: { ...base.from, name: longName },
      headers: [['X-Words', 'word '.repeat(390).trim()]],
      html: null,
      text: 'hi',
    }),
  );
  const head = raw.toString('latin1').split('\r\n\r\n')[0] as string;
  for (const line of head.split('\r\n'))
    assert.ok(Buffer.byteLength(line, 'latin1') <= 998, `a line of ${line.length} octets: ${line.slice(0, 40)}…`);
  const parsed = await simpleParser(raw);
  assert.equal(parsed.subject, subject);
  assert.equal(parsed.from?.value[0]?.name, longName);
  assert.equal(parsed.headers.get('x-words'), 'word '.repeat(390).trim());
  // An ASCII subject of 998 characters and no space, the longest the API takes, as well.
  const ascii = renderMime(composeDraft({ ...base, subject: 's'.repeat(998), html: null, text: 'hi' }));
  assert.ok(
    ascii
      .toString('latin1')
      .split('\r\n')
      .every((l) => l.length <= 998),
  );
  assert.equal((await simpleParser(ascii)).subject, 's'.repeat(998));
});

test('a custom header that cannot be folded is never sent over-long: rendering refuses it', () => {
  assert.throws(
    () => renderMime(composeDraft({ ...base, headers: [['X-Token', 'a'.repeat(1200)]], html: null, text: 'hi' })),
    /header X-Token has a line over 998 octets/,
  );
});

test('a part over 64 KiB that needs encoding is base64 in 76-character lines, small ones stay quoted-printable', async () => {
  const html = `<p>${'Ein langer Absatz ohne Umbruch — déjà vu. '.repeat(4000)}</p>`;
  const raw = renderMime(composeDraft({ ...base, html, text: 'Kurz: déjà vu.' }));
  const s = raw.toString('latin1');
  assert.match(s, /Content-Type: text\/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n/);
  assert.match(s, /Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n/);
  assert.ok(
    s.split('\r\n').every((l) => l.length <= 76 || /^(Content-Type|Subject|From|To|Message-ID|X-Order):/.test(l)),
    'RFC 2045 §6.8 line length',
  );
  const parsed = await simpleParser(raw);
  assert.equal(parsed.html, html);
  assert.equal(parsed.text, 'Kurz: déjà vu.');
});

test('the text of HTML over 256 KiB is converted in slices: every paragraph once, in order, no tag cut in half', () => {
  const n = 6000;
  const html = `<html><body>${Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} with <a href="https://example.org/${i}">link ${i}</a> &amp; more.</p>`).join('\n')}</body></html>`;
  assert.ok(html.length > 2 * 256 * 1024);
  const text = textFromHtml(html);
  assert.doesNotMatch(text, /[<>]/);
  const seen = [...text.matchAll(/Paragraph (\d+) with link \1 \[https:\/\/example\.org\/\1\] & more\./g)].map((m) =>
    Number(m[1]),
  );
  assert.deepEqual(
    seen,
    Array.from({ length: n }, (_, i) => i),
  );
});

test('content encoded in slices is byte for byte the one-shot base64 of its CRLF-normalized UTF-8', () => {
  const oneShot = (content: string): string =>
    Buffer.from(content.replace(/\r\n|\r|\n/g, '\r\n'), 'utf8')
      .toString('base64')
      .replace(/.{76}/g, '$&\r\n');
  const corpus = [
    '',
    'a',
    'ab\r\ncd',
    'x\ry\nz\r\n\r\r\n\n\r',
    '😀é\r\n😀😀\r😀',
    '\ud83d\r\n\ude00 lone halves',
    'déjà vu — '.repeat(300),
    Array.from({ length: 500 }, (_, i) => `line ${i}${['\r\n', '\n', '\r', '😀'][i % 4]}`).join(''),
  ];
  for (const content of corpus) {
    for (const slice of [2, 3, 4, 5, 7, 57, 64, 1000, 64 * 1024]) {
      assert.equal(
        [...normalizedSlices(content, slice)].join(''),
        content.replace(/\r\n|\r|\n/g, '\r\n'),
        `normalized, slices of ${slice}`,
      );
      assert.equal(
        joinPieces(['head\r\n', { base64: content }, '\r\ntail'], slice).toString('latin1'),
        `head\r\n${oneShot(content)}\r\ntail`,
        `${JSON.stringify(content.slice(0, 20))} in slices of ${slice}`,
      );
    }
  }
});

test('a part over LARGE_PART_CHARS is base64 in 76-character lines and parses back whole', async () => {
  const para = '<p>Un paragraphe — déjà vu 😀 <a href="https://shop.example.org/item?id=42">ici</a>.</p>\n';
  const html = para.repeat(Math.ceil((LARGE_PART_CHARS * 3) / para.length));
  const raw = renderMime(composeDraft({ ...base, html, text: null }));
  const s = raw.toString('latin1');
  assert.equal(raw.byteOffset, 0, 'the buffer owns its memory (transferable)');
  assert.equal(raw.byteLength, raw.buffer.byteLength);
  assert.match(s, /Content-Type: text\/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n/);
  assert.match(s, /Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n/);
  assert.equal(findBareLineBreak(raw), null);
  const parsed = await simpleParser(raw);
  assert.equal(parsed.html, html);
  assert.equal((parsed.text ?? '').trim(), textFromHtml(html).trim());
});

const cc = [{ name: 'Carol Copy', address: 'carol@example.org', local: 'carol', domain: 'example.org' }];
const pdf = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256));
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const files = [
  {
    filename: 'Rechnung März 2026.pdf',
    contentType: 'application/pdf',
    contentId: null,
    content: pdf.toString('base64'),
  },
  { filename: 'logo.png', contentType: 'image/png', contentId: 'logo@acme', content: png.toString('base64') },
];

/** The Content-Type values of the rendered message's MIME tree, depth first, indented by depth. */
function tree(raw: Buffer): string[] {
  const out: string[] = [];
  const walk = (entity: string, depth: number) => {
    const end = entity.indexOf('\r\n\r\n');
    const head = entity.slice(0, end).replace(/\r\n[ \t]+/g, ' ');
    const type = /^Content-Type: ([^;\r\n]+)(?:;[^\r\n]*boundary="([^"]+)")?/im.exec(head);
    out.push(`${'  '.repeat(depth)}${type?.[1] ?? 'text/plain'}`);
    if (type?.[2] === undefined) return;
    const parts = entity
      .slice(end + 4)
      .split(`--${type[2]}`)
      .slice(1, -1);
    for (const p of parts) walk(p.replace(/^\r\n/, ''), depth + 1);
  };
  walk(raw.toString('latin1'), 0);
  return out;
}

test('cc and reply_to are headers, Bcc never: the draft has no blind copies to render', async () => {
  const raw = renderMime(
    composeDraft({
      ...base,
      headers: [],
      cc,
      replyTo: [{ ...cc[0]!, name: '', address: 'help@acme.test' }],
      html: null,
      text: 'hi',
    }),
  );
  const parsed = await simpleParser(raw);
  assert.deepEqual(
    (parsed.cc as { value: { name: string; address: string }[] }).value.map((a) => [a.name, a.address]),
    [['Carol Copy', 'carol@example.org']],
  );
  assert.equal(parsed.replyTo?.value[0]?.address, 'help@acme.test');
  assert.doesNotMatch(raw.toString('latin1'), /^Bcc:/im);
});

test('html with an inline image and a file: mixed > alternative > (text, related > (html, image)), bytes and names intact', async () => {
  const html = '<p>Hello</p><img src="cid:logo@acme" alt="Acme">';
  const raw = renderMime(composeDraft({ ...base, headers: [], html, text: null, attachments: files }));
  assert.deepEqual(tree(raw), [
    'multipart/mixed',
    '  multipart/alternative',
    '    text/plain',
    '    multipart/related',
    '      text/html',
    '      image/png',
    '  application/pdf',
  ]);
  const s = raw.toString('latin1');
  const lines = s.split('\r\n');
  assert.ok(
    lines.every((l) => l.length <= 998),
    'RFC 5322 §2.1.1',
  );
  const base64 = lines.filter((l) => /^[A-Za-z0-9+/]{20,}={0,2}$/.test(l));
  assert.ok(base64.length >= 40, 'the files are there as base64 lines');
  assert.ok(
    base64.every((l) => l.length <= 76),
    'RFC 2045 §6.8: base64 in lines of at most 76 characters',
  );
  // RFC 2231 for the file name, RFC 2047 in the Content-Type's name for older readers.
  assert.match(s, /Content-Disposition: attachment;\r\n filename\*0\*=utf-8''Rechnung%20M%C3%A4rz%202026\.pdf/);
  assert.match(s.replace(/\r\n /g, ' '), /name="Rechnung =\?UTF-8\?Q\?M=C3=A4rz\?= 2026\.pdf"/);
  assert.match(s, /Content-Disposition: inline; filename=logo\.png\r\nContent-ID: <logo@acme>/);
  const parsed = await simpleParser(raw);
  const [image, file] = parsed.attachments;
  assert.equal(file?.filename, 'Rechnung März 2026.pdf');
  assert.equal(file?.contentType, 'application/pdf');
  assert.ok(file?.content.equals(pdf));
  assert.equal(image?.cid, 'logo@acme');
  assert.equal(image?.related, true);
  assert.ok(image?.content.equals(png));
  // mailparser resolves cid: references in the html to the inline part's bytes, as a reader would show them.
  assert.ok(String(parsed.html).includes(`data:image/png;base64,${png.toString('base64')}`), String(parsed.html));
  assert.equal(parsed.text?.trim(), 'Hello');
});

test('without html there is nothing to be inline in: every file is a part of multipart/mixed after the text', async () => {
  const raw = renderMime(composeDraft({ ...base, headers: [], html: null, text: 'See attached.', attachments: files }));
  assert.deepEqual(tree(raw), ['multipart/mixed', '  text/plain', '  application/pdf', '  image/png']);
  const parsed = await simpleParser(raw);
  assert.equal(parsed.text?.trim(), 'See attached.');
  assert.deepEqual(
    parsed.attachments.map((a) => [a.filename, a.content.length]),
    [
      ['Rechnung März 2026.pdf', pdf.length],
      ['logo.png', png.length],
    ],
  );
});

test('html with only inline images is multipart/alternative around multipart/related, no mixed', () => {
  const raw = renderMime(
    composeDraft({ ...base, headers: [], html: '<img src="cid:logo@acme">', text: 'Logo', attachments: [files[1]!] }),
  );
  assert.deepEqual(tree(raw), [
    'multipart/alternative',
    '  text/plain',
    '  multipart/related',
    '    text/html',
    '    image/png',
  ]);
});

test('a file of several MiB renders into one buffer of exactly its size: 76-character lines, read back whole', async () => {
  const big = Buffer.alloc(3 * 1024 * 1024 + 7, 0xa5);
  const raw = renderMime(
    composeDraft({
      ...base,
      headers: [],
      html: '<p>big</p>',
      text: null,
      attachments: [
        {
          filename: 'big.bin',
          contentType: 'application/octet-stream',
          contentId: null,
          content: big.toString('base64'),
        },
      ],
    }),
    64,
  );
  const message = raw.subarray(64);
  const parsed = await simpleParser(message);
  assert.ok(parsed.attachments[0]?.content.equals(big));
  assert.equal(findBareLineBreak(message), null);
});
