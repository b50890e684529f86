import { isIP } from 'node:net';

/** Parsers for configuration values; each throws a message that says what was expected. */

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `20s`, `72h`, `1.5m` → milliseconds (durations accept ms, s, m, h and d: docs/config.md). */
export function parseDuration(text: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new Error(`expected a duration such as 500ms, 20s, 5m, 72h or 30d, got "${text}"`);
  const ms = Math.round(Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]);
  if (!(ms > 0)) throw new Error(`expected a duration of at least 1ms, got "${text}"`);
  if (!Number.isSafeInteger(ms))
    throw new Error(`expected a duration of at most ${Number.MAX_SAFE_INTEGER}ms, got "${text}"`);
  return ms;
}

/** Node's timers hold a signed 32-bit delay: anything longer fires after 1 ms instead (with a warning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A duration that is used as a timer (setTimeout), so at most MAX_TIMER_MS (about 24.8 days). */
export function parseTimerDuration(text: string): number {
  const ms = parseDuration(text);
  if (ms > MAX_TIMER_MS)
    throw new Error(
      `expected a duration of at most ${MAX_TIMER_MS}ms (about 24.8 days; a longer timer fires at once), got "${text}"`,
    );
  return ms;
}

/** Comma-separated durations, e.g. `1m,5m,15m`. */
export function parseDurations(text: string): number[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) throw new Error('expected at least one duration, e.g. 1m,5m,15m');
  return parts.map(parseDuration);
}

/** `1`/`0`, `true`/`false`, `yes`/`no`. */
export function parseBool(text: string): boolean {
  const t = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(t)) return true;
  if (['0', 'false', 'no', 'off'].includes(t)) return false;
  throw new Error(`expected 1 or 0, got "${text}"`);
}

/** A whole number within [min, max]. */
export function parseInteger(text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text.trim())) throw new Error(`expected a whole number, got "${text}"`);
  const n = Number(text.trim());
  if (n < min || n > max) throw new Error(`expected a number from ${min} to ${max}, got ${n}`);
  return n;
}

/** A TCP port; 0 only where `allowZero` (a listener turned off). */
export function parsePort(text: string, allowZero = false): number {
  return parseInteger(text, allowZero ? 0 : 1, 65535);
}

/** `host[:port]` (IPv6 as `[addr]:port`) — used for resolvers and the smarthost. */
export function parseHostPort(text: string, needPort: boolean): string {
  const t = text.trim();
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+|[0-9a-fA-F:]+)(?::(\d+))?$/.exec(t);
  if (!m) throw new Error(`expected host or host:port, got "${text}"`);
  if (needPort && m[2] === undefined) throw new Error(`expected host:port, got "${text}"`);
  if (m[2] !== undefined) parsePort(m[2]);
  return t;
}

/**
 * Comma-separated resolver addresses: `ip`, `ip:port` or `[ipv6]:port`. IP literals only, because
 * Node's resolver cannot be pointed at a host name (it would need DNS to find DNS).
 */
export function parseResolverList(text: string): string[] {
  const entries = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (entries.length === 0) throw new Error('expected at least one resolver address, e.g. 127.0.0.1:53');
  for (const e of entries) {
    const m = /^(?:(\d{1,3}(?:\.\d{1,3}){3})(?::(\d+))?|\[([0-9a-fA-F:.]+)\](?::(\d+))?|([0-9a-fA-F:]+))$/.exec(e);
    const ip = m?.[1] ?? m?.[3] ?? m?.[5];
    if (!m || !ip || isIP(ip) === 0)
      throw new Error(`expected resolver IP addresses such as 127.0.0.1:5353 or [::1]:53, got "${e}"`);
    const port = m[2] ?? m[4];
    if (port !== undefined) parsePort(port);
  }
  return entries;
}

/** An absolute http(s) URL without a trailing slash. */
export function parseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`expected an absolute URL such as https://mail.example.com, got "${text}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`expected an https:// URL, got "${text}"`);
  return url.toString().replace(/\/+$/, '');
}

/** A `postgres://` or `postgresql://` connection string. */
export function parseDatabaseUrl(text: string): string {
  const t = text.trim();
  if (!/^postgres(ql)?:\/\//.test(t)) throw new Error(`expected a postgres:// URL, got "${text}"`);
  return t;
}

/** A DNS host name (no scheme, no port). */
export function parseHostname(text: string): string {
  const t = text.trim().toLowerCase().replace(/\.$/, '');
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(t)) {
    throw new Error(`expected a host name such as mail.example.com, got "${text}"`);
  }
  return t;
}

/**
 * A DNS name that is looked up but never a host: underscore labels are allowed, as in the common
 * `_spf.example.net` SPF include names (RFC 8552 §1.1 reserves leading underscores for such names).
 */
export function parseDnsName(text: string): string {
  const t = text.trim().toLowerCase().replace(/\.$/, '');
  if (!/^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?)*$/.test(t)) {
    throw new Error(`expected a DNS name such as _spf.example.com, got "${text}"`);
  }
  return t;
}

/** pino log levels. */
export function parseLogLevel(text: string): string {
  const t = text.trim().toLowerCase();
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(t)) throw new Error(`expected one of ${levels.join(', ')}, got "${text}"`);
  return t;
}

const SIZE = /^(\d+)(B|KB|MB|GB)?$/i;
const SIZE_UNIT = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as const;

/** `512KB`, `10MB`, `1048576` → bytes (binary units). */
export function parseSize(text: string): number {
  const m = SIZE.exec(text.trim());
  if (!m) throw new Error(`expected a size such as 512KB, 10MB or a number of bytes, got "${text}"`);
  const bytes = Number(m[1]) * SIZE_UNIT[(m[2] ?? 'B').toUpperCase() as keyof typeof SIZE_UNIT];
  if (!(bytes >= 1024)) throw new Error(`expected a size of at least 1KB, got "${text}"`);
  return bytes;
}

/** A plain `local@domain` address (no display name), lower-cased domain. */
export function parseAddress(text: string): string {
  const t = text.trim();
  const at = t.lastIndexOf('@');
  if (at < 1 || !/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(t.slice(0, at)))
    throw new Error(`expected an address such as fbl@bounce.example.com, got "${text}"`);
  return `${t.slice(0, at)}@${parseDnsName(t.slice(at + 1))}`;
}
