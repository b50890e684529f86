import { monotonicFactory } from 'ulidx';
import { randomBytes } from 'node:crypto';

/** Prefixes of the public identifiers Posthorn hands out (`msg_…`, `evt_…`, …: docs/api.md). */
export const ID_PREFIXES = [
  'msg',
  'evt',
  'acc',
  'dom',
  'key',
  'rcp',
  'job',
  'cred',
  'sup',
  'ntc',
  'whe',
  'whd',
  'wha',
  /** A `webhook.test` POST (docs/webhooks.md): a webhook-id that is no stored event. */
  'wht',
  'rpt',
  'tok',
  'aud',
  'tmpl',
  'sig',
  'usr',
  /** A kept sandbox message (the message's own ULID under this prefix: sandbox-transport.ts). */
  'sbx',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** Source of identifiers and secrets; swapped in tests for deterministic values. */
export interface Ids {
  /** A new `<prefix>_<ULID>` id: time-ordered, so "newest first, ties by id" is insertion order. */
  next(prefix: IdPrefix, now: number): string;
  /** `bytes` of cryptographic randomness. */
  random(bytes: number): Buffer;
}

/**
 * A PRNG for ulidx drawing on a pool of cryptographic random bytes refilled 4 KiB at a time:
 * ulidx asks for one number per character, and a system call per character showed in profiles.
 */
function pooledRandom(): () => number {
  let pool = randomBytes(4096);
  let at = 0;
  return () => {
    if (at + 4 > pool.length) {
      pool = randomBytes(4096);
      at = 0;
    }
    const n = pool.readUInt32BE(at);
    at += 4;
    return n / 0x1_0000_0000;
  };
}

/** ULID-based ids; monotonic within one millisecond, so events of the same millisecond page in a stable order when ties are broken by id. */
export function createIds(): Ids {
  const ulid = monotonicFactory(pooledRandom());
  return {
    next: (prefix, now) => `${prefix}_${ulid(now)}`,
    random: (bytes) => randomBytes(bytes),
  };
}
