import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters; N is the CPU/memory cost (a power of two), r the block size, p the parallelism. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * SMTP passwords get a slow password hash, since a stolen database must not give them away cheaply.
 * N=2^15, r=8 needs 32 MiB and roughly 100 ms of one thread-pool core per hash: the OWASP minimum
 * for scrypt, and cheap enough for the relay's logins.
 */
export const DEFAULT_SCRYPT: Readonly<ScryptParams> = { N: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;

// Bounds on parameters read from a stored hash: anything outside is not a hash this code wrote,
// and an absurd N would otherwise ask for gigabytes.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

const FORMAT = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{16,})$/;

/**
 * scrypt needs 128·r·(N + p + 2) bytes (OpenSSL's count); Node's default limit of 32 MiB is just
 * below what N=2^15, r=8 needs, so the limit is set from the parameters with room to spare.
 */
function maxmem({ N, r, p }: ScryptParams): number {
  return 128 * r * (N + p + 2) + 1024 * 1024;
}

/**
 * node:crypto's callback `scrypt` runs on libuv's thread pool, i.e. off the event loop, so a burst
 * of SMTP logins does not stall the relay's other connections or the HTTP API (CPU-heavy work stays
 * off the event loop).
 */
function derive(password: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: maxmem(params) };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes `password` with a fresh salt into the self-describing `scrypt$N$r$p$<salt>$<hash>` (base64url). */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/**
 * True when `password` matches `stored`. The parameters come from the string, so hashes written
 * with other costs keep working; a malformed string is false, never an exception. The comparison
 * is constant-time.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = FORMAT.exec(stored);
  if (!m) return false;
  const params = { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  const isPowerOfTwo = params.N > 1 && (params.N & (params.N - 1)) === 0;
  if (!isPowerOfTwo || params.N > MAX_N || params.r < 1 || params.r > MAX_R || params.p < 1 || params.p > MAX_P)
    return false;
  const salt = Buffer.from(m[4], 'base64url');
  const expected = Buffer.from(m[5], 'base64url');
  const actual = await derive(password, salt, expected.length, params);
  return timingSafeEqual(actual, expected);
}
