import type { DnsResolver } from '../core/dns-resolver.js';
import { checkResult, type CheckResult } from './check-result.js';
import { lookupFailed, lookupTxt } from './dns-lookup.js';
import type { DomainRecord } from './dns-records.js';
import { parseTagList } from './tag-list.js';

/** How one published key record compares with our key. */
type KeyMatch = 'match' | 'other-key' | 'revoked' | 'no-key' | 'bad-version' | 'bad-key-type' | 'invalid';

/** The DKIM key types Posthorn signs with: RSA always, Ed25519 (RFC 8463) when turned on. */
export type DkimKeyType = 'rsa' | 'ed25519';

/**
 * Checks that `<selector>._domainkey.<domain>` publishes our public key in a DKIM key record
 * (RFC 6376 §3.6.1): `p=` equal to `publicKeyB64` ignoring whitespace, `v` DKIM1, `k` the key's
 * type (`rsa` when absent, RFC 6376 §3.6.1; an Ed25519 record must say `k=ed25519`, RFC 8463 §4.2).
 */
export async function checkDkim(
  resolver: DnsResolver,
  record: Pick<DomainRecord, 'name' | 'value'>,
  publicKeyB64: string,
  keyType: DkimKeyType = 'rsa',
): Promise<CheckResult> {
  const answer = await lookupTxt(resolver, record.name);
  if (!answer.ok) return checkResult(record.value, [], lookupFailed(answer.code));
  const found = answer.records;
  if (found.length === 0) {
    return checkResult(record.value, found, `No DKIM record at ${record.name}; add TXT "${record.value}".`);
  }
  const matches = found.map((txt) => matchKey(txt, stripSpace(publicKeyB64), keyType));
  // RFC 6376 §3.6.2.2: with several records at a selector, which one a verifier uses is undefined.
  const warnings = found.length > 1 ? [`${record.name} has ${found.length} TXT records; keep only ours`] : [];
  if (matches.includes('match')) return checkResult(record.value, found, undefined, warnings);
  return checkResult(record.value, found, describe(record.name, matches, keyType), warnings);
}

/** Compares one TXT record at the selector with our key. */
function matchKey(txt: string, ourKey: string, keyType: DkimKeyType): KeyMatch {
  const list = parseTagList(txt);
  if (list.errors.length > 0) return 'invalid';
  const p = list.tags.get('p');
  if (p === undefined) return 'no-key';
  // RFC 6376 §3.6.1: an empty p= means the key was revoked.
  if (stripSpace(p) === '') return 'revoked';
  if (stripSpace(p) !== ourKey) return 'other-key';
  const v = list.tags.get('v');
  if (v !== undefined && v !== 'DKIM1') return 'bad-version';
  if ((list.tags.get('k') ?? 'rsa') !== keyType) return 'bad-key-type';
  return 'match';
}

/** The customer-facing sentence for the most telling mismatch. */
function describe(name: string, matches: KeyMatch[], keyType: DkimKeyType): string {
  if (matches.includes('bad-version')) return `The DKIM record at ${name} has our key but v= is not DKIM1.`;
  if (matches.includes('bad-key-type')) return `The DKIM record at ${name} has our key but k= is not ${keyType}.`;
  if (matches.includes('other-key')) {
    return `The DKIM record at ${name} publishes a different key; replace its p= value with ours.`;
  }
  if (matches.includes('revoked')) return `The DKIM record at ${name} has an empty p=, which revokes the key.`;
  if (matches.includes('no-key')) return `The TXT record at ${name} has no p= tag, so it is not a DKIM key.`;
  return `The TXT record at ${name} is not a valid DKIM tag list (RFC 6376 §3.2).`;
}

/** Removes all whitespace: base64 in p= may be folded across lines and strings (RFC 6376 §3.6.1). */
function stripSpace(text: string): string {
  return text.replace(/\s+/g, '');
}
