import { parseTagList } from './tag-list.js';

/** What is wrong with a DMARC record (errors) and what receivers will ignore (warnings). */
export interface DmarcValidation {
  errors: string[];
  warnings: string[];
}

const POLICIES = ['none', 'quarantine', 'reject'];

/** RFC 7489 §6.3 tags and their value syntax (§6.4 ABNF); each returns an error or undefined. */
const TAG_RULES: Record<string, (value: string) => string | undefined> = {
  v: (value) => (value === 'DMARC1' ? undefined : `v must be DMARC1, not "${value}"`),
  p: (value) => oneOf('p', value, POLICIES),
  sp: (value) => oneOf('sp', value, POLICIES),
  adkim: (value) => oneOf('adkim', value, ['r', 's']),
  aspf: (value) => oneOf('aspf', value, ['r', 's']),
  pct: (value) =>
    /^\d{1,3}$/.test(value) && Number(value) <= 100 ? undefined : `pct must be 0 to 100, not "${value}"`,
  ri: (value) => (/^\d+$/.test(value) ? undefined : `ri must be a whole number of seconds, not "${value}"`),
  fo: (value) => colonList('fo', value, ['0', '1', 'd', 's']),
  rf: (value) => colonList('rf', value, ['afrf', 'iodef']),
  rua: (value) => uriList('rua', value),
  ruf: (value) => uriList('ruf', value),
};

/** Matches a TXT record that claims to be DMARC: a leading v= tag with DMARC1 (RFC 7489 §6.6.3). */
export function isDmarcRecord(txt: string): boolean {
  return /^\s*v\s*=\s*DMARC1\s*(;|$)/i.test(txt);
}

/**
 * Validates a DMARC record's syntax (RFC 7489 §6.3, §6.4): v=DMARC1 first, p required, each known
 * tag's value. Unknown tags are ignored by receivers (RFC 7489 §6.3), so they are warnings, not errors.
 */
export function validateDmarc(txt: string): DmarcValidation {
  const list = parseTagList(txt, true);
  const errors = [...list.errors];
  const warnings: string[] = [];
  if (list.order[0] !== 'v') errors.push('v=DMARC1 must be the first tag');
  if (!list.tags.has('p')) errors.push('the required p tag is missing');
  for (const [name, value] of list.tags) {
    const rule = TAG_RULES[name];
    if (!rule) warnings.push(`unknown tag ${name} is ignored (RFC 7489 §6.3)`);
    const error = rule?.(value);
    if (error) errors.push(error);
  }
  return { errors, warnings };
}

/** A keyword from a fixed set, compared case-insensitively (ABNF literals, RFC 5234 §2.3). */
function oneOf(tag: string, value: string, allowed: string[]): string | undefined {
  if (allowed.includes(value.toLowerCase())) return undefined;
  return `${tag} must be one of ${allowed.join(', ')}, not "${value}"`;
}

/** A colon-separated list of keywords (fo, rf). */
function colonList(tag: string, value: string, allowed: string[]): string | undefined {
  const bad = value
    .split(':')
    .map((item) => item.trim())
    .find((item) => !allowed.includes(item.toLowerCase()));
  if (bad === undefined) return undefined;
  return `${tag} must be a colon-separated list of ${allowed.join(', ')}; "${bad}" is not one`;
}

/** A comma-separated list of report URIs, each with an optional !size suffix (RFC 7489 §6.4). */
function uriList(tag: string, value: string): string | undefined {
  for (const item of value.split(',').map((uri) => uri.trim())) {
    const match = /^([a-z][a-z0-9+.-]*):([^!\s]+)(?:!\d+[kmgt]?)?$/i.exec(item);
    if (!match) return `${tag} must list URIs such as mailto:reports@example.com; "${item}" is not one`;
    if (match[1].toLowerCase() === 'mailto' && !match[2].includes('@')) {
      return `${tag} has "${item}", which is not a mailto: address`;
    }
  }
  return undefined;
}
