// What Posthorn relies on from nodemailer's lib internals (src/mime/nodemailer-lib.ts): each
// function exists and gives the known output for a known input. These are not nodemailer's
// documented API, so an upgrade may change them without notice; this test is where it shows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buildHeaderValue,
  DataStream,
  detectMimeType,
  encodeWord,
  encodeWords,
  foldLines,
  hasLongerLines,
  isPlainText,
  parseAddressList,
  parseHeaderValue,
  qpEncode,
  qpWrap,
} from '../../../src/mime/nodemailer-lib.js';

/** Everything DataStream gives for `chunks` written one after another, as smtp-session.ts writes. */
async function throughDataStream(chunks: Buffer[]): Promise<Buffer[]> {
  const stream = new DataStream();
  const out: Buffer[] = [];
  stream.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const last = chunks.pop()!;
  for (const c of chunks) stream.write(c);
  stream.end(last);
  await ended;
  return out;
}

test('isPlainText and hasLongerLines: ASCII needs no encoding, lines over the limit are found', () => {
  assert.equal(isPlainText('Hello, world'), true);
  assert.equal(isPlainText('Grüße'), false);
  assert.equal(hasLongerLines(`${'a'.repeat(77)}\r\nb`, 76), true);
  assert.equal(hasLongerLines(`${'a'.repeat(76)}\r\nb`, 76), false);
});

test('encodeWord encodes the whole value, specials included (a display name stays one mailbox)', () => {
  assert.equal(encodeWord('Grüße aus Köln', 'Q', 52), '=?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus_K=C3=B6ln?=');
  assert.equal(encodeWord('Ann, Bé', 'Q', 52), '=?UTF-8?Q?Ann=2C_B=C3=A9?=');
});

test('encodeWords encodes only from the first non-ASCII word, and splits long runs into words of at most 52', () => {
  assert.equal(encodeWords('Rechnung für März', 'Q', 52), 'Rechnung =?UTF-8?Q?f=C3=BCr_M=C3=A4rz?=');
  const long = encodeWords(Array(8).fill('Ünïcödé').join(' '), 'Q', 52);
  const words = long.split(' ');
  assert.ok(words.length > 1);
  for (const w of words) {
    assert.match(w, /^=\?UTF-8\?Q\?[^?\s]*\?=$/);
    assert.ok(w.length <= 52, w);
  }
  assert.equal(words[0], '=?UTF-8?Q?=C3=9Cn=C3=AFc=C3=B6d=C3=A9_=C3=9Cn?=');
});

test('foldLines folds at whitespace into lines of at most 76 characters joined by CRLF', () => {
  const words = Array(30).fill('word').join(' ');
  assert.equal(
    foldLines(`Subject: ${words}`, 76),
    `Subject: ${Array(13).fill('word').join(' ')}\r\n ${Array(15).fill('word').join(' ')}\r\n word word`,
  );
});

test('parseHeaderValue: the value and its parameters, names lower-cased, quotes removed', () => {
  assert.deepEqual(parseHeaderValue('text/html; Charset="iso-8859-1"; format=flowed'), {
    value: 'text/html',
    params: { charset: 'iso-8859-1', format: 'flowed' },
  });
  assert.deepEqual(parseHeaderValue('multipart/alternative;\r\n boundary="b1=_x;y"'), {
    value: 'multipart/alternative',
    params: { boundary: 'b1=_x;y' },
  });
});

test('qpEncode and qpWrap: RFC 2045 quoted-printable of UTF-8 and latin1 input, soft breaks at 76', () => {
  assert.equal(qpEncode('Grüße = 100%\r\nline two\tend '), 'Gr=C3=BC=C3=9Fe =3D 100%\r\nline two\tend=20');
  assert.equal(qpEncode(Buffer.from('caf\xe9', 'latin1')), 'caf=E9');
  assert.equal(
    qpWrap(qpEncode(`${'x'.repeat(70)}${'é'.repeat(10)}`), 76),
    `${'x'.repeat(70)}=\r\n${'=C3=A9'.repeat(10)}`,
  );
  // A soft break never splits an =XX escape.
  for (const line of qpWrap(qpEncode('é'.repeat(100)), 76).split('\r\n')) {
    assert.ok(line.length <= 76, line);
    assert.match(line, /^(?:=[0-9A-F]{2})*=?$/);
  }
});

test('parseAddressList: quoted commas, groups flattened, an empty group and comments', () => {
  assert.deepEqual(
    parseAddressList(
      '"Doe, John" <john@example.com>, undisclosed-recipients:;, team: a@example.com, b@example.com;, c@example.com (Comment, with comma)',
    ),
    [
      { address: 'john@example.com', name: 'Doe, John' },
      { address: 'a@example.com', name: '' },
      { address: 'b@example.com', name: '' },
      { address: 'c@example.com', name: 'Comment, with comma' },
    ],
  );
  assert.deepEqual(parseAddressList(''), []);
});

test('DataStream dot-stuffs lines that start with a dot and ends the data with CRLF . CRLF', async () => {
  const out = await throughDataStream([
    Buffer.from('Subject: x\r\n\r\n.leading dot\r\nmiddle . dot\r\n..two\r\n.\r\nlast', 'latin1'),
  ]);
  assert.equal(
    Buffer.concat(out).toString('latin1'),
    'Subject: x\r\n\r\n..leading dot\r\nmiddle . dot\r\n...two\r\n..\r\nlast\r\n.\r\n',
  );
  // A line start split across writes is still found.
  const split = await throughDataStream([Buffer.from('a\r'), Buffer.from('\n.b\r\n.'), Buffer.from('c\r\n')]);
  assert.equal(Buffer.concat(split).toString('latin1'), 'a\r\n..b\r\n..c\r\n.\r\n');
});

test('DataStream passes a message with no line to stuff through without copying it (smtp-session.ts relies on it)', async () => {
  const raw = Buffer.from('From: a@example.com\r\n\r\nno dots here\r\n'.repeat(4));
  const out = await throughDataStream([raw]);
  assert.equal(out[0], raw, 'the same Buffer, not a copy');
  assert.equal(Buffer.concat(out).toString('latin1'), `${raw.toString('latin1')}.\r\n`);
});

test('detectMimeType and buildHeaderValue: types from extensions, file names as RFC 2231 parameters', () => {
  assert.equal(detectMimeType('Invoice.PDF'), 'application/pdf');
  assert.equal(detectMimeType('logo.png'), 'image/png');
  assert.equal(detectMimeType('README'), 'application/octet-stream');
  assert.equal(detectMimeType('forward.eml'), 'message/rfc822');
  assert.equal(buildHeaderValue('attachment', { filename: 'report.pdf' }), 'attachment; filename=report.pdf');
  assert.equal(buildHeaderValue('attachment', { filename: 'a b.pdf' }), 'attachment; filename="a b.pdf"');
  assert.equal(
    buildHeaderValue('attachment', { filename: 'Rechnung März.pdf' }),
    "attachment; filename*0*=utf-8''Rechnung%20M%C3%A4rz.pdf",
  );
  assert.equal(
    buildHeaderValue('inline', { filename: `${'x'.repeat(80)}.pdf` }),
    `inline; filename*0=${'x'.repeat(50)}; filename*1=${'x'.repeat(30)}.pdf`,
  );
});
