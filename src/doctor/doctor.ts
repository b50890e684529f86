import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import net, { BlockList, isIPv4, isIPv6 } from 'node:net';
import { sql } from 'kysely';
import type { Config } from '../config/schema.js';
import type { Clock } from '../core/clock.js';
import type { DnsResolver } from '../core/dns-resolver.js';
import { dnsLookup, lookupTxt, type Lookup } from '../domains/dns-lookup.js';
import { isSpfRecord, spfTerms } from '../domains/spf-terms.js';
import { resolveRoute } from '../delivery/resolve-route.js';
import type { Database } from '../storage/database.js';
import type { Kysely } from 'kysely';
import { pendingMigrations } from '../storage/migrate.js';

/** A resolver that can also answer PTR questions (Node's dns.promises.Resolver can). */
export type DoctorResolver = DnsResolver & { resolvePtr(name: string): Promise<string[]> };

/**
 * The reverse-DNS name of an address (RFC 1035 §3.5, RFC 3596 §2.5). Asked as a plain PTR query,
 * not with the resolver's reverse(), which answers from /etc/hosts first: the doctor must see what
 * receivers see.
 */
export function reverseName(ip: string): string {
  if (isIPv4(ip)) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const h = groups(head);
  const t = ip.includes('::') ? groups(tail) : [];
  const all = ip.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  const nibbles = all.map((g) => g.padStart(4, '0')).join('');
  return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
}

/** One check's verdict: what was found and, unless it passed, what to do about it. */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  found: string;
  fix?: string;
}

export interface DoctorInputs {
  config: Pick<
    Config,
    'hostname' | 'spfIncludeHost' | 'bounceHost' | 'tlsCert' | 'tlsKey' | 'mxPort' | 'relayHost' | 'sandbox'
  >;
  resolver: DoctorResolver;
  /** The database when it could be opened, or the reason it could not. */
  db: { ok: true; db: Kysely<Database>; dialect: string } | { ok: false; reason: string };
  clock: Clock;
  /** The domain whose MX is used to test outbound port 25 (`--probe`). */
  probeDomain: string;
  /** How long to wait for a DNS answer set or an SMTP greeting. */
  timeoutMs?: number;
}

/** A certificate closer than this to its expiry is a warning: renewals normally run 30 days ahead. */
const EXPIRY_WARNING_MS = 14 * 86_400_000;

/**
 * `posthorn doctor` (docs/deploy.md, "Checking the set-up"): the operator's own DNS, certificate,
 * database and outbound port 25, each as receivers and clients will see them, with the fix for
 * whatever is wrong. Never throws for what it finds: every failure is a check in the result.
 */
export async function runDoctor(input: DoctorInputs): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const { config, resolver } = input;
  const host = config.hostname;

  const addresses = await hostAddresses(resolver, host);
  checks.push(
    addresses.ok && addresses.records.length > 0
      ? { name: 'hostname', status: 'ok', found: `${host} resolves to ${addresses.records.join(', ')}` }
      : {
          name: 'hostname',
          status: 'fail',
          found: addresses.ok ? `${host} has no A or AAAA record` : `lookup of ${host} failed: ${addresses.code}`,
          fix: `publish an A record (and AAAA if you send over IPv6) for ${host} pointing at this server (POSTHORN_HOSTNAME)`,
        },
  );
  const ips = addresses.ok ? addresses.records : [];

  checks.push(...(await reverseDnsChecks(resolver, host, ips)));
  checks.push(await spfCheck(resolver, config.spfIncludeHost, ips));
  checks.push(await bounceHostCheck(resolver, config.bounceHost, ips));
  checks.push(await certificateCheck(config, input.clock));
  checks.push(await databaseCheck(input.db));
  checks.push(await outboundCheck(resolver, config, input.probeDomain, input.timeoutMs ?? 10_000));
  return checks;
}

/** The hostname's A and AAAA records together (either alone is fine). */
async function hostAddresses(resolver: DnsResolver, host: string): Promise<Lookup<string>> {
  const [v4, v6] = await Promise.all([
    dnsLookup(() => resolver.resolve4(host)),
    dnsLookup(() => resolver.resolve6(host)),
  ]);
  if (!v4.ok && !v6.ok) return v4;
  return { ok: true, records: [...(v4.ok ? v4.records : []), ...(v6.ok ? v6.records : [])] };
}

const sameName = (a: string, b: string): boolean =>
  a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/**
 * Forward-confirmed reverse DNS for each address: its PTR names the hostname, and the hostname
 * resolves back to it (what receivers check before trusting a sending address; RFC 8601 §3
 * describes the "iprev" check).
 */
async function reverseDnsChecks(resolver: DoctorResolver, host: string, ips: string[]): Promise<DoctorCheck[]> {
  if (ips.length === 0)
    return [
      { name: 'reverse DNS', status: 'fail', found: `no address of ${host} to check`, fix: 'fix the hostname first' },
    ];
  return Promise.all(
    ips.map(async (ip): Promise<DoctorCheck> => {
      const ptr = await dnsLookup(() => resolver.resolvePtr(reverseName(ip)));
      const name = `reverse DNS of ${ip}`;
      const fix = `ask the provider of ${ip} to set its PTR record to ${host}`;
      if (!ptr.ok) return { name, status: 'fail', found: `PTR lookup failed: ${ptr.code}`, fix };
      if (ptr.records.length === 0) return { name, status: 'fail', found: `${ip} has no PTR record`, fix };
      if (!ptr.records.some((n) => sameName(n, host)))
        return { name, status: 'fail', found: `the PTR of ${ip} is ${ptr.records.join(', ')}, not ${host}`, fix };
      return { name, status: 'ok', found: `${ip} → ${host} → ${ip}` };
    }),
  );
}

/** Whether the SPF record at the include host authorises every one of `ips` (ip4, ip6 and a mechanisms). */
async function spfCheck(resolver: DnsResolver, spfHost: string, ips: string[]): Promise<DoctorCheck> {
  const name = 'SPF include host';
  const wanted = ips.map((ip) => (isIPv6(ip) ? `ip6:${ip}` : `ip4:${ip}`)).join(' ') || 'ip4:<this server>';
  const fix = `publish ${spfHost} TXT "v=spf1 ${wanted} -all" (POSTHORN_SPF_INCLUDE_HOST)`;
  const txt = await lookupTxt(resolver, spfHost);
  if (!txt.ok) return { name, status: 'fail', found: `TXT lookup of ${spfHost} failed: ${txt.code}`, fix };
  const records = txt.records.filter(isSpfRecord);
  if (records.length === 0) return { name, status: 'fail', found: `${spfHost} has no SPF record`, fix };
  if (records.length > 1)
    return {
      name,
      status: 'fail',
      found: `${spfHost} has ${records.length} SPF records (RFC 7208 §4.5: a permerror)`,
      fix,
    };
  const record = records[0] as string;
  const allowed = new BlockList();
  for (const term of spfTerms(record)) {
    if (term.kind !== 'mechanism' || term.qualifier !== '+') continue;
    if (term.name === 'ip4' || term.name === 'ip6') addCidr(allowed, term.value);
    if (term.name === 'a') {
      const target = term.value === '' || term.value.startsWith('/') ? spfHost : (term.value.split('/')[0] as string);
      const answer = await hostAddresses(resolver, target);
      for (const ip of answer.ok ? answer.records : []) addCidr(allowed, ip);
    }
  }
  const missing = ips.filter((ip) => !allowed.check(ip, isIPv6(ip) ? 'ipv6' : 'ipv4'));
  if (missing.length > 0)
    return { name, status: 'fail', found: `"${record}" does not authorise ${missing.join(', ')}`, fix };
  return { name, status: 'ok', found: `"${record}" authorises ${ips.join(', ') || 'the server'}` };
}

function addCidr(list: BlockList, value: string): void {
  const [address = '', bits] = value.split('/');
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
  if (family === undefined) return;
  const prefix = bits === undefined ? (family === 'ipv4' ? 32 : 128) : Number(bits);
  if (Number.isInteger(prefix)) list.addSubnet(address, prefix, family);
}

/** The bounce host has an MX whose exchange resolves to this server (every `bounce.<domain>` CNAME targets it). */
async function bounceHostCheck(resolver: DnsResolver, bounceHost: string, ips: string[]): Promise<DoctorCheck> {
  const name = 'bounce host MX';
  const fix = `publish ${bounceHost} MX 10 <this server's hostname> (POSTHORN_BOUNCE_HOST), so bounces reach the inbound role on port 25`;
  const mx = await dnsLookup(() => resolver.resolveMx(bounceHost));
  if (!mx.ok) return { name, status: 'fail', found: `MX lookup of ${bounceHost} failed: ${mx.code}`, fix };
  const exchanges = mx.records.map((r) => r.exchange).filter((e) => e !== '' && e !== '.');
  if (exchanges.length === 0) return { name, status: 'fail', found: `${bounceHost} has no MX record`, fix };
  const reached = await Promise.all(exchanges.map((e) => hostAddresses(resolver, e)));
  const theirs = reached.flatMap((a) => (a.ok ? a.records : []));
  if (ips.length > 0 && !theirs.some((ip) => ips.includes(ip)))
    return {
      name,
      status: 'fail',
      found: `${bounceHost} MX ${exchanges.join(', ')} resolves to ${theirs.join(', ') || 'nothing'}, not to this server (${ips.join(', ')})`,
      fix,
    };
  return { name, status: 'ok', found: `${bounceHost} MX ${exchanges.join(', ')} (${theirs.join(', ')})` };
}

/** The operator's certificate names the hostname and is not about to expire. */
async function certificateCheck(config: DoctorInputs['config'], clock: Clock): Promise<DoctorCheck> {
  const name = 'TLS certificate';
  if (config.tlsCert === null)
    return {
      name,
      status: config.sandbox ? 'ok' : 'warn',
      found: 'a self-signed certificate generated by Posthorn',
      ...(config.sandbox
        ? {}
        : {
            fix: `set POSTHORN_TLS_CERT and POSTHORN_TLS_KEY to a certificate for ${config.hostname} (docs/deploy.md)`,
          }),
    };
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(await readFile(config.tlsCert));
  } catch (err) {
    return {
      name,
      status: 'fail',
      found: `cannot read ${config.tlsCert}: ${(err as Error).message}`,
      fix: 'point POSTHORN_TLS_CERT at a readable PEM certificate',
    };
  }
  const validTo = Date.parse(x509.validTo);
  const left = validTo - clock.now();
  const names = x509.subjectAltName ?? x509.subject;
  if (x509.checkHost(config.hostname) === undefined)
    return {
      name,
      status: 'fail',
      found: `${config.tlsCert} is for ${names}, not ${config.hostname}`,
      fix: `get a certificate that names ${config.hostname}`,
    };
  if (left <= 0)
    return {
      name,
      status: 'fail',
      found: `expired on ${x509.validTo}`,
      fix: 'renew it (docs/deploy.md, "TLS certificates")',
    };
  if (left < EXPIRY_WARNING_MS)
    return {
      name,
      status: 'warn',
      found: `expires on ${x509.validTo}, in ${Math.floor(left / 86_400_000)} days`,
      fix: 'check that its renewal runs (docs/deploy.md, "TLS certificates")',
    };
  return { name, status: 'ok', found: `names ${config.hostname}, valid until ${x509.validTo}` };
}

async function databaseCheck(db: DoctorInputs['db']): Promise<DoctorCheck> {
  const name = 'database';
  if (!db.ok)
    return { name, status: 'fail', found: db.reason, fix: 'check POSTHORN_DATABASE_URL and that the database runs' };
  try {
    await sql`SELECT 1`.execute(db.db);
    const pending = await pendingMigrations(db.db, db.dialect === 'postgres' ? 'postgres' : 'sqlite');
    if (pending.length > 0)
      return {
        name,
        status: 'warn',
        found: `${db.dialect}: ${pending.length} migration(s) not applied yet (${pending.join(', ')})`,
        fix: 'start the server (`posthorn serve`): it applies them',
      };
    return { name, status: 'ok', found: `${db.dialect} answers; migrations current` };
  } catch (err) {
    return {
      name,
      status: 'fail',
      found: (err as Error).message,
      fix: 'check POSTHORN_DATABASE_URL and that the database runs',
    };
  }
}

/**
 * Outbound port 25: an SMTP greeting from the MX of `probeDomain` (or from the smarthost of
 * POSTHORN_RELAY_HOST), read and answered with QUIT. Nothing is sent.
 */
async function outboundCheck(
  resolver: DnsResolver,
  config: DoctorInputs['config'],
  probeDomain: string,
  timeoutMs: number,
): Promise<DoctorCheck> {
  const via = config.relayHost !== null ? `the smarthost ${config.relayHost}` : `the MX of ${probeDomain}`;
  const name = config.relayHost !== null ? 'outbound to the smarthost' : 'outbound port 25';
  const fix =
    config.relayHost !== null
      ? 'check POSTHORN_RELAY_HOST and the firewall between this server and the smarthost'
      : `open outbound TCP port ${config.mxPort} (many cloud providers block it until asked), or send through a smarthost (POSTHORN_RELAY_HOST)`;
  const route = await resolveRoute(resolver, probeDomain, { mxPort: config.mxPort, relayHost: config.relayHost });
  if (route.kind !== 'deliver') return { name, status: 'fail', found: `no route to ${via}: ${route.reason}`, fix };
  const first = route.destinations[0];
  if (first === undefined) return { name, status: 'fail', found: `no host for ${via}`, fix };
  const address = net.isIP(first.host) ? first.host : await firstAddress(resolver, first.host);
  if (address === undefined) return { name, status: 'fail', found: `${first.host} has no address`, fix };
  const greeting = await smtpGreeting(address, first.port, timeoutMs);
  if (!greeting.ok)
    return { name, status: 'fail', found: `${first.host} (${address}) port ${first.port}: ${greeting.reason}`, fix };
  return { name, status: 'ok', found: `${first.host} port ${first.port} greeted: ${greeting.line}` };
}

async function firstAddress(resolver: DnsResolver, host: string): Promise<string | undefined> {
  const answer = await hostAddresses(resolver, host);
  return answer.ok ? answer.records[0] : undefined;
}

function smtpGreeting(
  host: string,
  port: number,
  timeoutMs: number,
): Promise<{ ok: true; line: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let text = '';
    const done = (r: { ok: true; line: string } | { ok: false; reason: string }): void => {
      socket.removeAllListeners('data');
      if (r.ok) socket.end('QUIT\r\n');
      else socket.destroy();
      resolve(r);
    };
    socket.setTimeout(timeoutMs, () => done({ ok: false, reason: `no greeting within ${timeoutMs / 1000} s` }));
    socket.on('error', (err: NodeJS.ErrnoException) => done({ ok: false, reason: err.code ?? err.message }));
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
      const line = /^(\d{3}) [^\r\n]*\r?\n/m.exec(text);
      if (!line) return;
      const reply = line[0].trim();
      if (line[1] === '220') done({ ok: true, line: reply });
      else done({ ok: false, reason: `refused: ${reply}` });
    });
  });
}
