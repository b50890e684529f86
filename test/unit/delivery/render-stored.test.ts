import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { dkimSign, KeyCache, type DkimKey } from '../../../src/delivery/dkim/dkim-sign.js';
import {
  framedDigest,
  framedMessage,
  renderFramed,
  renderStored,
  type RenderInput,
} from '../../../src/delivery/render-stored.js';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

function rsaKey(): DkimKey {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { id: 'rsa-1', domain: 'acme.test', selector: 's1', algorithm: 'rsa-sha256', privateKeyPem: privateKey };
}

const mime = `From: a@acme.test\r\nTo: b@example.org\r\nSubject: hi\r\nMessage-ID: <m@acme.test>\r\n\r\n${'body line  with  spaces \r\n'.repeat(5000)}`;
const input: RenderInput = {
  mime,
  content: null,
  tracking: { opens: false, clicks: false, unsubscribe: false },
  recipient: null,
};

test('a framed rendering signed on the same thread is byte for byte the rendering signed by dkimSign', () => {
  const key = rsaKey();
  const framed = renderFramed({ ...input, sign: { keys: [key], now: NOW } });
  assert.equal(framed.byteOffset, 0, 'one buffer of its own, so it can be transferred');
  assert.equal(framed.byteLength, framed.buffer.byteLength);
  const expected = dkimSign(renderStored(input), [key], new KeyCache(), NOW);
  assert.ok(expected.toString('latin1').startsWith('DKIM-Signature:'));
  assert.deepEqual(framedMessage(framed), expected);
  assert.equal(
    framedDigest(framed),
    createHash('sha256').update(expected).digest('base64'),
    'the digest of the signed message',
  );
});

test('a framed rendering without keys is the rendering as it is', () => {
  const framed = renderFramed(input);
  assert.deepEqual(framedMessage(framed), renderStored(input));
  assert.equal(framedDigest(framed), createHash('sha256').update(renderStored(input)).digest('base64'));
  assert.deepEqual(
    framedMessage(renderFramed({ ...input, sign: { keys: [], now: NOW } })),
    Buffer.from(mime, 'latin1'),
  );
});
