// DKIM signing throughput: RSA-2048, relaxed/relaxed, ~5 KB messages composed by nodemailer.
// Run: npx tsx bench/dkim.ts [seconds per phase, default 5]
// Prints `dkim_sign_inline: N sigs/s` (one thread, the event loop) and `dkim_sign_pool: N sigs/s`
// (two worker threads, 256 calls outstanding), plus the pool without batching for comparison and
// the bare RSA-2048 private-key operation on one thread: the ceiling, which shows how busy the machine is.
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { dkimSign, KeyCache, type DkimKey } from '../src/delivery/dkim/dkim-sign.js';
import { createSignerPool } from '../src/delivery/dkim/signer-pool.js';

const seconds = Number(process.argv[2] ?? 5);
const CONCURRENCY = 256;

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const key: DkimKey = {
  id: 'bench',
  domain: 'bench.example.com',
  selector: 'ph202603',
  algorithm: 'rsa-sha256',
  privateKeyPem: privateKey,
};

async function composeMessages(count: number): Promise<Buffer[]> {
  const paragraph = 'Thank you for your order. Your items will ship within two business days. ';
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      new MailComposer({
        from: 'Shop <orders@bench.example.com>',
        to: `customer${i}@example.org`,
        subject: `Your receipt #${100000 + i}`,
        date: new Date(Date.UTC(2026, 2, 14)),
        messageId: `<${i}.bench@bench.example.com>`,
        text: paragraph.repeat(30),
        html: `<html><body><p>${paragraph.repeat(30)}</p></body></html>`,
        headers: { 'List-Unsubscribe': `<https://bench.example.com/u/${i}>` },
      })
        .compile()
        .build(),
    ),
  );
}

function rawRsa(): number {
  const keyObject = createPrivateKey(privateKey);
  const data = Buffer.alloc(600, 'a'); // about the size of the signed header data
  const deadline = performance.now() + 1000;
  const start = performance.now();
  let n = 0;
  while (performance.now() < deadline) for (let i = 0; i < 50; i++, n++) sign('sha256', data, keyObject);
  return n / ((performance.now() - start) / 1000);
}

function inline(messages: Buffer[]): number {
  const cache = new KeyCache();
  const deadline = performance.now() + seconds * 1000;
  const start = performance.now();
  let n = 0;
  while (performance.now() < deadline) {
    for (let i = 0; i < 50; i++, n++) dkimSign(messages[n % messages.length]!, [key], cache, 1_773_446_400_000);
  }
  return n / ((performance.now() - start) / 1000);
}

async function pool(messages: Buffer[], maxBatch: number): Promise<number> {
  const signer = createSignerPool({ threads: 2, maxBatch });
  await signer.sign(messages[0]!, [key], 0); // workers loaded and keys parsed before timing
  const deadline = performance.now() + seconds * 1000;
  const start = performance.now();
  let n = 0;
  const lane = async (): Promise<void> => {
    while (performance.now() < deadline) {
      await signer.sign(messages[n++ % messages.length]!, [key], 1_773_446_400_000);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const rate = n / ((performance.now() - start) / 1000);
  await signer.close();
  return rate;
}

const messages = await composeMessages(64);
const size = Math.round(messages.reduce((sum, m) => sum + m.length, 0) / messages.length);
console.log(`message_size: ${size} bytes`);
console.log(`rsa2048_sign_raw: ${Math.round(rawRsa())} ops/s`);
console.log(`dkim_sign_inline: ${Math.round(inline(messages))} sigs/s`);
console.log(`dkim_sign_pool: ${Math.round(await pool(messages, 16))} sigs/s`);
console.log(`dkim_sign_pool_unbatched: ${Math.round(await pool(messages, 1))} sigs/s`);
