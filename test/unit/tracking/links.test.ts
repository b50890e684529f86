// Tracking tokens and html rewriting. A click token restores the original URL exactly;
// a tampered or foreign token never yields a URL; everything but the rewritten hrefs is unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeToken, readToken } from '../../../src/tracking/token.js';
import { rewriteHtml } from '../../../src/tracking/html.js';
import { trackMimeHtml, htmlBodies } from '../../../src/tracking/mime.js';
import { classifyOpen, PREFETCH_WINDOW_MS } from '../../../src/tracking/automated.js';
import { trackingUrls, MAX_TRACKED_URL_BYTES } from '../../../src/tracking/render.js';
import { locationFor } from '../../../src/http/routes/tracking.js';
import { findBareLineBreak } from '../../../src/delivery/smtp/bare-line-break.js';

const secret = Buffer.alloc(32, 7);
const rcp = 'rcp_01JABCDEFGHJKMNPQRSTVWXYZ0';

const URLS = [
  'https://example.com/',
  'https://example.com/a?b=1&c=2#frag',
  'https://example.com/path;p?q=%20x&y=a+b',
  'http://example.com/ünïcödé/日本?q=€',
  'https://bücher.example/x',
  `https://example.com/long?${'k=v&'.repeat(1200)}end`,
];

test('a click token carries its URL back exactly, for every URL shape', () => {
  for (const url of URLS) {
    const token = makeToken(secret, 'click', rcp, url);
    assert.match(token, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(readToken(secret, 'click', token), { recipientId: rcp, payload: url });
  }
  // Open and unsubscribe tokens are compact: 1 + 16 + 16 bytes.
  assert.equal(makeToken(secret, 'open', rcp).length, 44);
});

test('tampered, truncated, foreign-key and other-kind tokens are refused', () => {
  const token = makeToken(secret, 'click', rcp, 'https://example.com/a');
  const flip = (i: number) => token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
  for (let i = 0; i < token.length; i++) assert.equal(readToken(secret, 'click', flip(i)), null, `byte ${i}`);
  assert.equal(readToken(secret, 'click', token.slice(0, -1)), null);
  assert.equal(readToken(secret, 'click', `${token}x`), null);
  assert.equal(readToken(Buffer.alloc(32, 8), 'click', token), null);
  assert.equal(readToken(secret, 'open', token), null);
  assert.equal(readToken(secret, 'unsubscribe', makeToken(secret, 'open', rcp)), null);
  for (const junk of ['', 'abc', '../../etc/passwd', 'a'.repeat(200), 'https://evil.test'])
    assert.equal(readToken(secret, 'click', junk), null);
});

test('html: http(s) hrefs of a and area are rewritten; mailto, tel, anchors, comments, scripts and our own links are not', () => {
  const seen: string[] = [];
  const html = [
    '<html><head><style>a[href="https://css.test"]{}</style></head><body>',
    '<a href="https://a.test/x?a=1&amp;b=2#f">one</a>',
    '<A HREF=http://b.test/p>two</A>',
    '<a href=\'mailto:x@y.test\'>m</a><a href="tel:+1">t</a><a href="#top">#</a>',
    '<!-- <a href="https://comment.test">c</a> -->',
    '<script>document.write(\'<a href="https://script.test">\')</script>',
    '<area href=" https://c.test/&copy=1 ">',
    '<a href="https://pub.test/u/abc">own</a><a name="x">no href</a>',
    '</body></html>',
  ].join('\n');
  const out = rewriteHtml(html, {
    pixelUrl: null,
    link: (u) => {
      seen.push(u);
      return u.startsWith('https://pub.test/') ? null : `https://pub.test/t/c/${seen.length}`;
    },
  });
  assert.deepEqual(seen, [
    'https://a.test/x?a=1&b=2#f',
    'http://b.test/p',
    'https://c.test/&copy=1',
    'https://pub.test/u/abc',
  ]);
  assert.equal(
    out,
    html
      .replace('https://a.test/x?a=1&amp;b=2#f', 'https://pub.test/t/c/1')
      .replace('HREF=http://b.test/p', 'HREF="https://pub.test/t/c/2"')
      .replace(' https://c.test/&copy=1 ', 'https://pub.test/t/c/3'),
  );
});

test('html: the pixel goes before </body>, else at the end; a text-only rewrite with nothing to do is unchanged', () => {
  const p = (h: string) => rewriteHtml(h, { pixelUrl: 'https://pub.test/t/o/T', link: null });
  assert.match(
    p('<p>x</p></BODY></html>'),
    /^<p>x<\/p><img src="https:\/\/pub\.test\/t\/o\/T" width="1" height="1" alt=""[^>]*\/><\/BODY><\/html>$/,
  );
  assert.match(p('<p>x</p>'), /^<p>x<\/p><img src="https:\/\/pub\.test\/t\/o\/T"/);
  assert.equal(
    rewriteHtml('<a href="mailto:a@b">x</a>', { pixelUrl: null, link: () => 'never' }),
    '<a href="mailto:a@b">x</a>',
  );
});

test('trackingUrls: own links and over-long links are left alone', () => {
  const urls = trackingUrls(secret, 'https://pub.test', rcp);
  assert.equal(urls.link('https://PUB.test/t/c/abc'), null);
  assert.equal(urls.link(`https://x.test/${'a'.repeat(MAX_TRACKED_URL_BYTES)}`), null);
  const tracked = urls.link('https://x.test/?a=1&b=2');
  assert.ok(tracked?.startsWith('https://pub.test/t/c/'));
  assert.equal(
    readToken(secret, 'click', (tracked ?? '').slice('https://pub.test/t/c/'.length))?.payload,
    'https://x.test/?a=1&b=2',
  );
});

test('trackingUrls: a repeated link gets the same URL as a fresh one, whatever came before', () => {
  const shared = trackingUrls(secret, 'https://pub.test', rcp);
  const links = [...URLS, 'https://PUB.test/t/c/abc', `https://x.test/${'a'.repeat(MAX_TRACKED_URL_BYTES)}`];
  for (const round of [1, 2])
    for (const url of links)
      assert.equal(shared.link(url), trackingUrls(secret, 'https://pub.test', rcp).link(url), `${url}, round ${round}`);
  const other = trackingUrls(secret, 'https://pub.test', 'rcp_01JABCDEFGHJKMNPQRSTVWXYZ1');
  assert.notEqual(other.link(URLS[0]!), shared.link(URLS[0]!), 'per recipient');
});

test('Location: printable ASCII URLs byte for byte, other characters percent-encoded as UTF-8', () => {
  assert.equal(locationFor('https://a.test/x?a=1&b=%20#f'), 'https://a.test/x?a=1&b=%20#f');
  assert.equal(locationFor('https://a.test/ü x'), 'https://a.test/%C3%BC%20x');
});

const CRLF = (lines: string[]) => lines.join('\r\n');

test('relayed MIME: quoted-printable and base64 html parts are rewritten; text, attachments and attached messages keep every byte', () => {
  const html = '<html><body><a href="https://a.test/?x=1&amp;y=2">ünï</a></body></html>';
  const qpHtml = html.replace('ünï', '=C3=BCn=C3=AF');
  const attachedMessage = CRLF([
    'From: a@b.test',
    'Content-Type: text/html',
    '',
    '<a href="https://inner.test">inner</a>',
  ]);
  const attachment = CRLF([
    'Content-Type: text/html; name="page.html"',
    'Content-Disposition: attachment; filename="page.html"',
    '',
    '<a href="https://attached.test">file</a>',
  ]);
  const msg = CRLF([
    'From: a@acme.test',
    'Subject: x',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="OUT"',
    '',
    'preamble',
    '--OUT',
    'Content-Type: multipart/alternative; boundary=ALT',
    '',
    '--ALT',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'see https://a.test/?x=1',
    '--ALT',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    qpHtml,
    '--ALT--',
    '',
    '--OUT',
    'Content-Type: message/rfc822',
    '',
    attachedMessage,
    '--OUT',
    attachment,
    '--OUT',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(html).toString('base64'),
    '--OUT--',
    'epilogue',
    '',
  ]);
  const seen: string[] = [];
  const out = trackMimeHtml(msg, {
    pixelUrl: 'https://pub.test/t/o/P',
    link: (u) => {
      seen.push(u);
      return `https://pub.test/t/c/${seen.length}`;
    },
  });
  assert.deepEqual(seen, ['https://a.test/?x=1&y=2', 'https://a.test/?x=1&y=2']);
  // Untouched: everything before the qp html body, the attached message and the attachment.
  assert.ok(out.startsWith(msg.slice(0, msg.indexOf(qpHtml))));
  assert.ok(out.includes(attachedMessage) && out.includes(attachment) && out.endsWith('--OUT--\r\nepilogue\r\n'));
  const bodies = htmlBodies(out).map((b) => Buffer.from(b, 'latin1').toString('utf8'));
  assert.equal(bodies.length, 3, 'the qp part, the attachment (found but not rewritten) and the base64 part');
  assert.match(
    bodies[0]!,
    /<a href="https:\/\/pub\.test\/t\/c\/1">ünï<\/a><img src="https:\/\/pub\.test\/t\/o\/P"[^>]*\/><\/body>/,
  );
  assert.equal(bodies[1], '<a href="https://attached.test">file</a>');
  assert.match(
    bodies[2]!,
    /<a href="https:\/\/pub\.test\/t\/c\/2">ünï<\/a><\/body>/,
    'one pixel per message: only in the first html part',
  );
});

test('relayed MIME: a 7bit html part whose line grows past 998 octets becomes quoted-printable', () => {
  const msg = CRLF([
    'From: a@acme.test',
    'Content-Type: text/html; charset=us-ascii',
    '',
    `<a href="https://a.test/">${'x'.repeat(900)}</a>`,
    '',
  ]);
  const out = trackMimeHtml(msg, { pixelUrl: null, link: () => `https://pub.test/t/c/${'T'.repeat(300)}` });
  assert.match(
    out,
    /^From: a@acme\.test\r\nContent-Type: text\/html; charset=us-ascii\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n/,
  );
  assert.ok(out.split('\r\n').every((l) => l.length <= 998));
  assert.match(htmlBodies(out)[0]!, /href="https:\/\/pub\.test\/t\/c\/T{300}"/);
});

test('relayed MIME: a quoted-printable html part hiding a bare CR or LF (=0D, =0A) is re-encoded with CRLF only', () => {
  const msg = CRLF([
    'From: a@acme.test',
    'Content-Type: text/html; charset=us-ascii',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    '<p>a=0Db=0Ac</p><a href=3D"https://a.test/">x</a>',
    '',
  ]);
  const out = trackMimeHtml(msg, { pixelUrl: null, link: () => 'https://pub.test/t/c/1' });
  assert.equal(findBareLineBreak(Buffer.from(out, 'latin1')), null);
  assert.match(htmlBodies(out)[0]!, /<p>a\r\nb\r\nc<\/p><a href="https:\/\/pub\.test\/t\/c\/1">/);
});

test('automated opens: privacy proxies by user agent, and any open seconds after delivery', () => {
  const later = 1_000_000 + PREFETCH_WINDOW_MS + 1;
  assert.deepEqual(classifyOpen('Mozilla/5.0', later, 1_000_000), {
    automated: true,
    reason: 'apple_mail_privacy_protection',
  });
  assert.deepEqual(
    classifyOpen(
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
      later,
      1_000_000,
    ),
    { automated: false, proxy: 'google_image_proxy' },
    "an image cache fetching on the reader's open is a real open",
  );
  assert.deepEqual(
    classifyOpen('YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html', later, 1_000_000),
    { automated: false, proxy: 'yahoo_mail_proxy' },
  );
  assert.deepEqual(classifyOpen('GoogleImageProxy', 1_000_000 + 2_000, 1_000_000), {
    automated: true,
    reason: 'seconds_after_delivery',
    proxy: 'google_image_proxy',
  });
  assert.deepEqual(
    classifyOpen(
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.135 Safari/537.36 Edge/12.246 Mozilla/5.0',
      later,
      1_000_000,
    ),
    { automated: true, reason: 'gmail_prefetch' },
  );
  const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)';
  assert.deepEqual(classifyOpen(browser, 1_000_000 + 2_000, 1_000_000), {
    automated: true,
    reason: 'seconds_after_delivery',
  });
  assert.deepEqual(classifyOpen(browser, later, 1_000_000), { automated: false });
  assert.deepEqual(classifyOpen(browser, later, null), { automated: false });
});
