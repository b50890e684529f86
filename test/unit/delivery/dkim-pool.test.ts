import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { createSignerPool } from '../../../src/delivery/dkim/signer-pool.js';
import type { DkimKey } from '../../../src/delivery/dkim/dkim-sign.js';

const NOW = Date.UTC(2026, 2, 14, 9, 30, 0);
const DOMAIN = 'pool.example.com';
const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'der' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const key: DkimKey = {
  id: 'pool-rsa',
  domain: DOMAIN,
  selector: 'ph202603',
  algorithm: 'rsa-sha256',
  privateKeyPem: privateKey,
};
const badKey: DkimKey = {
  ...key,
  id: 'pool-bad',
  privateKeyPem: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n',
};
const txt = `v=DKIM1; k=rsa; p=${publicKey.toString('base64')}`;

async function verifies(signed: Buffer): Promise<boolean> {
  const resolver = async (name: string): Promise<string[][]> => {
    if (name === `${key.selector}._domainkey.${DOMAIN}`) return [[txt]];
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  };
  const { results } = await dkimVerify(signed, { resolver, curTime: new Date(NOW) });
  return results.length === 1 && results[0]!.status.result === 'pass';
}

function message(i: number): Buffer {
  const body = `Message number ${i}.\r\n${'Some body text that makes the message a few kilobytes long.\r\n'.repeat(40 + (i % 7))}`;
  return Buffer.from(
    `From: sender@${DOMAIN}\r\nTo: rcpt${i}@example.org\r\nSubject: message ${i}\r\n` +
      `Date: Sat, 14 Mar 2026 09:30:00 +0000\r\nMessage-ID: <${i}@${DOMAIN}>\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: text/plain; charset=utf-8\r\n\r\n${body}`,
  );
}

test('two threads sign 200 messages concurrently; each result is its own message, signed, and verifies', async () => {
  const pool = createSignerPool({ threads: 2 });
  try {
    const raws = Array.from({ length: 200 }, (_, i) => message(i));
    const signed = await Promise.all(raws.map((raw) => pool.sign(raw, [key], NOW)));
    for (const [i, out] of signed.entries()) {
      assert.ok(out.subarray(out.length - raws[i]!.length).equals(raws[i]!), `message ${i} comes back as itself`);
      assert.match(out.toString('latin1', 0, 40), /^DKIM-Signature: v=1; a=rsa-sha256;/);
    }
    const verdicts = await Promise.all(signed.map(verifies));
    assert.equal(verdicts.filter(Boolean).length, 200);
  } finally {
    await pool.close();
  }
});

test('a bad PEM rejects that call with a clear error; the other calls and later ones still sign', async () => {
  const pool = createSignerPool({ threads: 2 });
  try {
    const calls = [
      pool.sign(message(1), [key], NOW),
      pool.sign(message(2), [badKey], NOW),
      pool.sign(message(3), [key], NOW),
    ];
    const [good1, bad, good3] = await Promise.allSettled(calls);
    assert.equal(bad!.status, 'rejected');
    assert.match(
      String((bad as PromiseRejectedResult).reason),
      /DKIM key pool-bad \(ph202603\._domainkey\.pool\.example\.com\): cannot parse the private key PEM/,
    );
    assert.equal(good1!.status, 'fulfilled');
    assert.equal(good3!.status, 'fulfilled');
    assert.ok(await verifies(await pool.sign(message(4), [key], NOW)));
  } finally {
    await pool.close();
  }
});

test('close() rejects calls in flight and every later call', async () => {
  const pool = createSignerPool({ threads: 2 });
  assert.ok(await verifies(await pool.sign(message(0), [key], NOW)), 'the workers are up');
  const pending = Array.from({ length: 20 }, (_, i) => pool.sign(message(i), [key], NOW));
  const settled = Promise.allSettled(pending);
  await null; // let the pool post the batches: the results cannot arrive before the next event-loop turn
  await pool.close();
  for (const s of await settled) {
    assert.equal(s.status, 'rejected');
    assert.match(String((s as PromiseRejectedResult).reason), /DKIM signer pool is closed/);
  }
  await assert.rejects(pool.sign(message(1), [key], NOW), /DKIM signer pool is closed/);
  await pool.close(); // idempotent
});

test('threads: 0 signs inline; close() refuses later calls', async () => {
  const pool = createSignerPool({ threads: 0 });
  assert.ok(await verifies(await pool.sign(message(5), [key], NOW)));
  await assert.rejects(pool.sign(message(6), [badKey], NOW), /cannot parse the private key PEM/);
  await pool.close();
  await assert.rejects(pool.sign(message(7), [key], NOW), /DKIM signer pool is closed/);
  assert.throws(() => createSignerPool({ threads: -1 }), /threads must be an integer >= 0/);
});

test('workers load TypeScript when tsx was registered at run time, as bin/posthorn.js does', async () => {
  const poolUrl = new URL('../../../src/delivery/dkim/signer-pool.ts', import.meta.url).href;
  const script = `
    import { register } from 'tsx/esm/api';
    register();
    const { createSignerPool } = await import(${JSON.stringify(poolUrl)});
    const pool = createSignerPool({ threads: 1 });
    const key = JSON.parse(process.argv[1]);
    const out = await pool.sign(Buffer.from('From: a@${DOMAIN}\\r\\n\\r\\nhi\\r\\n'), [key], ${NOW});
    await pool.close();
    process.stdout.write(out.toString('latin1'));`;
  const cwd = fileURLToPath(new URL('../../../', import.meta.url));
  // No --import tsx here: the child starts as plain Node, like the posthorn binary.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script, JSON.stringify(key)],
    { cwd },
  );
  assert.match(stdout, /^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=pool\.example\.com;/);
  assert.ok(await verifies(Buffer.from(stdout, 'latin1')));
});
