import type { DnsResolver } from '../core/dns-resolver.js';
import type { Destination } from './transport.js';

/**
 * Where a recipient domain's mail goes: hosts to try in order, a permanent refusal
 * (`rejected-by-mta`) or a DNS failure to retry later (a deferral, like a soft bounce).
 */
export type Route =
  | { kind: 'deliver'; destinations: Destination[] }
  | { kind: 'reject'; reason: string }
  | { kind: 'defer'; reason: string };

export interface RouteOptions {
  /** POSTHORN_MX_PORT: the port of every MX host (and of a relay host given without one). */
  mxPort: number;
  /** POSTHORN_RELAY_HOST: `host:port` or `[v6]:port`; when set, all mail goes there and DNS is not asked. */
  relayHost: string | null;
  /**
   * Shuffles MX hosts of equal preference (RFC 5321 §5.1) with this source of numbers in [0, 1).
   * Unset: equal-preference hosts keep the resolver's answer order, which DNS servers rotate.
   */
  random?: () => number;
}

/** Answers that mean "asked, and the name has no such record" (NOERROR/NODATA, or an empty answer after a CNAME). */
const NO_DATA = 'ENODATA';
/** NXDOMAIN: the name does not exist. */
const NO_DOMAIN = 'ENOTFOUND';
/** The resolver refused to ask because the name is malformed (empty label, `[1.2.3.4]`…): asking again never helps. */
const BAD_NAME = 'EBADNAME';

/**
 * The route for mail to `domain`: the relay host when configured, else its MX hosts by preference,
 * else the domain itself (implicit MX). Never throws for DNS answers; throws only on a malformed relay host.
 */
export async function resolveRoute(resolver: DnsResolver, domain: string, opts: RouteOptions): Promise<Route> {
  if (opts.relayHost !== null) return { kind: 'deliver', destinations: [parseRelayHost(opts.relayHost, opts.mxPort)] };
  const name = normalizeName(domain);
  const mx = await ask(() => resolver.resolveMx(name));
  if (!mx.ok) {
    if (mx.code === NO_DOMAIN) return { kind: 'reject', reason: 'domain does not exist' };
    if (mx.code === BAD_NAME) return { kind: 'reject', reason: 'invalid domain name' };
    if (mx.code !== NO_DATA) return { kind: 'defer', reason: `MX lookup failed: ${mx.code}` };
  }
  const records = mx.ok ? mx.value : [];
  if (records.length === 0) return implicitMx(resolver, name, opts.mxPort);
  const hosts = records.map((r) => ({ host: normalizeName(r.exchange), priority: r.priority }));
  // RFC 7505 §3: a null MX is one record with an empty exchange ("."); the domain accepts no mail.
  // We also refuse when every record is empty whatever its preference: there is no host to try.
  const real = hosts.filter((h) => h.host !== '');
  if (real.length === 0) return { kind: 'reject', reason: 'domain does not accept mail (null MX)' };
  // RFC 7505 §3 forbids a null MX beside other MX records; when a domain has both, we ignore the null one.
  return {
    kind: 'deliver',
    destinations: byPreference(real, opts.random).map((host) => ({ host, port: opts.mxPort })),
  };
}

/** RFC 5321 §5.1: no MX records → the domain's own address records act as an MX of preference 0. */
async function implicitMx(resolver: DnsResolver, name: string, port: number): Promise<Route> {
  const [v4, v6] = await Promise.all([ask(() => resolver.resolve4(name)), ask(() => resolver.resolve6(name))]);
  if ((v4.ok && v4.value.length > 0) || (v6.ok && v6.value.length > 0))
    return { kind: 'deliver', destinations: [{ host: name, port }] };
  const failed = [v4, v6].find((answer) => !answer.ok && answer.code !== NO_DATA && answer.code !== NO_DOMAIN);
  if (failed && !failed.ok) return { kind: 'defer', reason: `address lookup failed: ${failed.code}` };
  return { kind: 'reject', reason: 'no mail host' };
}

/**
 * Host names in ascending preference, each once (at its best preference). Ties keep the answer's
 * order, which is stable per answer; RFC 5321 §5.1 asks senders to randomise ties, and `random`
 * does that for callers that want it (DNS servers already rotate RRsets between answers).
 */
function byPreference(hosts: { host: string; priority: number }[], random?: () => number): string[] {
  const keyed = hosts.map((h) => ({ ...h, tie: random ? random() : 0 }));
  const sorted = keyed.sort((a, b) => a.priority - b.priority || a.tie - b.tie);
  return [...new Set(sorted.map((h) => h.host))];
}

/** `host:port`, `[v6]:port`, or a host alone (then on `defaultPort`). Brackets are removed for connecting. */
export function parseRelayHost(text: string, defaultPort: number): Destination {
  const t = text.trim();
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(t) ?? /^([^:[\]]+)(?::(\d+))?$/.exec(t) ?? /^([0-9a-fA-F:.]+)()$/.exec(t);
  if (!m || m[1] === undefined || m[1] === '')
    throw new Error(`relay host must be host:port or [ipv6]:port, got "${text}"`);
  const port = m[2] ? Number(m[2]) : defaultPort;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`relay host port out of range in "${text}"`);
  return { host: normalizeName(m[1]), port };
}

/** Names compare case-insensitively (RFC 4343) and the root dot is not part of what we connect to. */
function normalizeName(name: string): string {
  const t = name.trim().toLowerCase();
  return t === '.' ? '' : t.replace(/\.$/, '');
}

type Answer<T> = { ok: true; value: T } | { ok: false; code: string };

/** One resolver query with its rejection turned into Node's error code (ESERVFAIL, ETIMEOUT, …). */
async function ask<T>(query: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { ok: true, value: await query() };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return { ok: false, code: typeof code === 'string' ? code : 'EUNKNOWN' };
  }
}
