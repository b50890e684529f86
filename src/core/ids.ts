import { monotonicFactory } from 'ulidx';
import { randomBytes } from 'node:crypto';

/** Prefixes of the public identifiers Posthorn hands out (spec 2.1, decisions §10). */
export const ID_PREFIXES = ['msg', 'evt', 'acc', 'dom', 'key', 'rcp', 'job', 'cred', 'sup'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** Source of identifiers and secrets; swapped in tests for deterministic values. */
export interface Ids {
  /** A new `<prefix>_<ULID>` id: time-ordered, so "newest first, ties by id" is insertion order. */
  next(prefix: IdPrefix, now: number): string;
  /** `bytes` of cryptographic randomness. */
  random(bytes: number): Buffer;
}

/** ULID-based ids; monotonic within one millisecond (decisions §11 tie-break by id). */
export function createIds(): Ids {
  const ulid = monotonicFactory();
  return {
    next: (prefix, now) => `${prefix}_${ulid(now)}`,
    random: (bytes) => randomBytes(bytes),
  };
}
