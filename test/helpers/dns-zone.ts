import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, Packet, RecordType } from 'dns-packet';

/** The records at one name. TXT records are lists of strings (or one string); any length is fine. */
export interface ZoneEntry {
  TXT?: (string | string[])[];
  MX?: { exchange: string; priority: number }[];
  A?: string[];
  AAAA?: string[];
  CNAME?: string[];
  /** At `<reversed address>.in-addr.arpa` (or `ip6.arpa`): the names an address points back to. */
  PTR?: string[];
  /** Answer every query at this name with SERVFAIL, to test lookup failures. */
  SERVFAIL?: boolean;
  /** TLSA records (RFC 6698), at `_<port>._tcp.<host>`. */
  TLSA?: { usage: number; selector: number; matchingType: number; data: Buffer }[];
  /**
   * Answers at this name carry the AD bit, as a validating resolver sets it for a DNSSEC-secure
   * answer (RFC 4035 §3.2.3) when the query asked with AD or DO (RFC 6840 §5.7).
   */
  AD?: boolean;
}

/** A mutable zone: lower-case name without trailing dot → its records. Tests edit it between queries. */
export type Zone = Record<string, ZoneEntry>;

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, FORMERR: 1 } as const;

/** Past this many CNAME hops the answer stops, as a loop guard. */
const MAX_CNAME_CHAIN = 8;

/**
 * The authoritative response to `query` from `zone`. TTLs are 0 so resolvers (c-ares caches since
 * 1.23) never serve a stale answer after a test edits the zone.
 */
export function answerQuery(zone: Zone, query: DecodedPacket): Packet {
  const question = query.questions?.[0];
  // RFC 1035 §4.1.1: AA for an authoritative answer; echo RD from the query.
  const flags = dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED);
  const response: Packet = { type: 'response', id: query.id, questions: query.questions ?? [], answers: [] };
  if (!question) return { ...response, flags: flags | RCODE.FORMERR };
  const { rcode, answers } = resolveName(zone, question.name, question.type, 0);
  const asked = (query.flags ?? 0) & dnsPacket.AUTHENTIC_DATA || wantsDnssec(query);
  const ad = asked && findEntry(zone, question.name)?.AD === true ? dnsPacket.AUTHENTIC_DATA : 0;
  return { ...response, flags: flags | rcode | ad, answers };
}

/** The query's EDNS OPT record has the DO bit (RFC 3225). */
function wantsDnssec(query: DecodedPacket): boolean {
  return (query.additionals ?? []).some((a) => a.type === 'OPT' && a.flag_do);
}

/** Answers at `name` for `type`, following CNAMEs inside the zone like a real authoritative server. */
function resolveName(zone: Zone, name: string, type: RecordType, hops: number): { rcode: number; answers: Answer[] } {
  const entry = findEntry(zone, name);
  if (!entry) return { rcode: RCODE.NXDOMAIN, answers: [] };
  if (entry.SERVFAIL) return { rcode: RCODE.SERVFAIL, answers: [] };
  const cnames = entry.CNAME ?? [];
  if (cnames.length === 0 || type === 'CNAME') return { rcode: RCODE.NOERROR, answers: recordsOf(entry, name, type) };
  // RFC 1034 §3.6.2: a CNAME answers a query of any type; the server adds the target's records.
  const aliases: Answer[] = cnames.map((target) => ({ type: 'CNAME', name, ttl: 0, data: target }));
  if (hops >= MAX_CNAME_CHAIN || !findEntry(zone, cnames[0])) return { rcode: RCODE.NOERROR, answers: aliases };
  const next = resolveName(zone, cnames[0], type, hops + 1);
  return { rcode: next.rcode, answers: [...aliases, ...next.answers] };
}

/** The entry for a name, matched case-insensitively and without the trailing dot. */
function findEntry(zone: Zone, name: string): ZoneEntry | undefined {
  const key = name.toLowerCase().replace(/\.$/, '');
  return Object.hasOwn(zone, key) ? zone[key] : undefined;
}

/** The entry's records of one type as answer records owned by `name`. */
function recordsOf(entry: ZoneEntry, name: string, type: RecordType): Answer[] {
  switch (type) {
    case 'TXT':
      return (entry.TXT ?? []).map((txt) => ({ type: 'TXT', name, ttl: 0, data: characterStrings(txt) }));
    case 'MX':
      return (entry.MX ?? []).map((mx) => ({
        type: 'MX',
        name,
        ttl: 0,
        data: { preference: mx.priority, exchange: mx.exchange },
      }));
    case 'TLSA':
      return (entry.TLSA ?? []).map((r) => ({
        type: 'TLSA',
        name,
        ttl: 0,
        data: { usage: r.usage, selector: r.selector, matchingType: r.matchingType, certificate: r.data },
      }));
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'PTR':
      return (entry[type] ?? []).map((data) => ({ type, name, ttl: 0, data }));
    default:
      return [];
  }
}

/** RFC 1035 §3.3.14: TXT data is character-strings of at most 255 bytes each, so long strings split. */
function characterStrings(txt: string | string[]): Buffer[] {
  const strings = typeof txt === 'string' ? [txt] : txt;
  return strings.flatMap((text) => {
    const bytes = Buffer.from(text, 'utf8');
    const chunks: Buffer[] = [];
    for (let start = 0; start < bytes.length; start += 255) chunks.push(bytes.subarray(start, start + 255));
    return chunks.length > 0 ? chunks : [Buffer.alloc(0)];
  });
}
