import { isIPv4, isIPv6 } from 'node:net';

/** Limits of the SMTP AUTH throttle; times in milliseconds. */
export interface AuthThrottleOptions {
  /** Failures within the window that are free; the next attempt after this many is delayed. */
  slowAfter: number;
  /** Failures within the window after which the address is refused for `blockMs`. */
  blockAfter: number;
  windowMs: number;
  blockMs: number;
  maxDelayMs: number;
  /** The first delay, doubled with each further failure up to `maxDelayMs`. */
  baseDelayMs?: number;
  /** Addresses tracked at most; past this the least recently failing ones are forgotten. */
  maxEntries?: number;
}

/** Whether an AUTH attempt from an address may go ahead now, and after what pause. */
export type ThrottleVerdict = { allowed: true; delayMs: number } | { allowed: false; retryAfterMs: number };

/** The relay's AUTH throttle: ask `check` before verifying, report the outcome with `failure` or `success`. */
export interface AuthThrottle {
  check(ip: string, now: number): ThrottleVerdict;
  failure(ip: string, now: number): void;
  /** A successful login from `ip` clears its record. */
  success(ip: string, now: number): void;
  /** Forgets every record that no longer slows or blocks anything (also runs by itself). */
  sweep(now: number): void;
  /** Addresses (or IPv6 /64s) currently tracked. */
  size(): number;
}

interface Entry {
  /** Failure times within the last window, oldest first; never more than `blockAfter`. */
  failures: number[];
  blockedUntil: number;
}

export const DEFAULT_AUTH_THROTTLE: AuthThrottleOptions = {
  slowAfter: 3,
  blockAfter: 10,
  windowMs: 15 * 60_000,
  blockMs: 15 * 60_000,
  maxDelayMs: 5000,
};

/**
 * A per-address brute-force brake for SMTP AUTH, driven by the `now` it is given (no timers, no
 * clock of its own). Keyed by the remote address only, never by username: a guesser hammering a
 * real user's login from one address is slowed and then refused (the relay answers 421), while
 * the real user, connecting from elsewhere, is never locked out. IPv6 addresses count per /64,
 * the block one subscriber is routinely given, so an attacker cannot step through its 2^64
 * addresses to start afresh. Memory is bounded: expired records are swept and at most
 * `maxEntries` are kept.
 *
 * State is per process: with several relay nodes each keeps its own, which at worst multiplies
 * the tries per window by the number of nodes.
 */
export function createAuthThrottle(options: AuthThrottleOptions = DEFAULT_AUTH_THROTTLE): AuthThrottle {
  const { slowAfter, blockAfter, windowMs, blockMs, maxDelayMs } = options;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxEntries = options.maxEntries ?? 100_000;
  const entries = new Map<string, Entry>();
  let lastSweep = -Infinity;

  const prune = (e: Entry, now: number): void => {
    while (e.failures.length > 0 && e.failures[0] <= now - windowMs) e.failures.shift();
  };
  const expired = (e: Entry, now: number): boolean => {
    prune(e, now);
    return e.blockedUntil <= now && e.failures.length === 0;
  };

  const sweep = (now: number): void => {
    lastSweep = now;
    for (const [key, e] of entries) if (expired(e, now)) entries.delete(key);
    // Map iteration is insertion order and failure() re-inserts, so the first keys are the
    // addresses that failed least recently.
    for (const key of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(key);
    }
  };
  const maybeSweep = (now: number): void => {
    if (now - lastSweep >= Math.min(windowMs, 60_000) || entries.size > maxEntries) sweep(now);
  };

  return {
    check(ip, now) {
      maybeSweep(now);
      const e = entries.get(addressKey(ip));
      if (!e) return { allowed: true, delayMs: 0 };
      if (e.blockedUntil > now) return { allowed: false, retryAfterMs: e.blockedUntil - now };
      prune(e, now);
      const over = e.failures.length - slowAfter;
      return { allowed: true, delayMs: over < 0 ? 0 : Math.min(maxDelayMs, baseDelayMs * 2 ** over) };
    },
    failure(ip, now) {
      const key = addressKey(ip);
      const e = entries.get(key) ?? { failures: [], blockedUntil: 0 };
      entries.delete(key);
      prune(e, now);
      e.failures.push(now);
      if (e.failures.length >= blockAfter) {
        e.blockedUntil = now + blockMs;
        e.failures = [];
      }
      entries.set(key, e);
      maybeSweep(now);
    },
    success(ip) {
      entries.delete(addressKey(ip));
    },
    sweep,
    size: () => entries.size,
  };
}

/**
 * The throttle's key for a remote address: an IPv4 address as is (also when IPv4-mapped, as a
 * dual-stack socket reports it), an IPv6 address as its /64 prefix, anything else verbatim.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIPv4(ip)) return ip;
  const bare = ip.replace(/%.*$/, '');
  if (!isIPv6(bare)) return ip;
  const groups = expandIPv6(bare);
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded; an embedded IPv4 tail counts as two). */
function expandIPv6(ip: string): string[] {
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const split = (part: string | undefined): string[] =>
    part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : [];
  const left = split(head);
  const right = split(tail);
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right];
}
