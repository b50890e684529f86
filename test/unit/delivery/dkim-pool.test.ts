import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { createSignerPool } from '../../../src/delivery/dkim/signer-pool.js';
import type { DkimKey } from '../../../src/delivery/dkim/dkim-sign.js';
import { signedCopy } from '../../../src/delivery/dkim/signed-copy.js';
import { renderMime } from '../../../src/mime/render-mime.js';
import type { MessageDraft } from '../../../src/mime/message-draft.js';

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

test('a draft is rendered by the signer: the same signed bytes and signed copy on threads as inline, and they verify', async () => {
  const pool = createSignerPool({ threads: 2 });
  const inline = createSignerPool({ threads: 0 });
  const prefix = 'Feedback-ID: t:acc:pool.example.com:ph\r\n';
  const draft = (i: number): MessageDraft => ({
    messageId: `<d${i}@${DOMAIN}>`,
    date: 'Sat, 14 Mar 2026 09:30:00 +0000',
    from: { name: 'Pool', address: `sender@${DOMAIN}` },
    to: [{ name: '', address: `rcpt${i}@example.org` }],
    subject: `draft ${i}`,
    html: `<p>Hello number ${i}</p>${'<p>Some html that makes the message longer.</p>'.repeat(20 + i)}`,
    text: i % 2 === 0 ? null : `Hello number ${i}`,
    headers: [],
  });
  try {
    for (const i of [0, 1, 2, 3]) {
      const [threaded, here] = await Promise.all([
        pool.signMessage({ draft: draft(i), prefix }, [key], NOW, 2),
        inline.signMessage({ draft: draft(i), prefix }, [key], NOW, 2),
      ]);
      const expected = Buffer.concat([Buffer.from(prefix, 'latin1'), renderMime(draft(i))]);
      assert.ok(threaded.signed.subarray(threaded.signed.length - expected.length).equals(expected));
      assert.ok(threaded.signed.equals(here.signed), `draft ${i}: same bytes on a thread as inline`);
      assert.deepEqual(threaded.copy, signedCopy(here.signed, 2));
      assert.match(threaded.copy.fields, /^DKIM-Signature: [^]*\r\nFeedback-ID: t:acc:pool\.example\.com:ph\r\n$/);
      assert.ok(await verifies(threaded.signed));
    }
    // Bytes given as they are keep their copy too.
    const raw = Buffer.concat([Buffer.from(prefix, 'latin1'), message(5)]);
    const r = await pool.signMessage({ raw }, [key], NOW, 2);
    assert.deepEqual(r.copy, signedCopy(r.signed, 2));
    await assert.rejects(
      pool.signMessage(
        { draft: { ...draft(6), from: undefined as unknown as MessageDraft['from'] }, prefix },
        [key],
        NOW,
        2,
      ),
    );
  } finally {
    await pool.close();
    await inline.close();
  }
});
