import addressparser from 'nodemailer/lib/addressparser/index.js';
import { normalizeDomain } from './domain-name.js';

/** A parsed `Name <local@domain>` or bare `local@domain`. */
export interface Mailbox {
  name: string;
  /** `local@domain` with the domain lower-cased A-labels; the local part as given. */
  address: string;
  local: string;
  domain: string;
}

// RFC 5322 §3.2.3 atext, for a dot-atom local part; quoted local parts are accepted too (§3.2.4).
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const QUOTED = /^"([\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;

/** Splits and checks a bare address; null with the reason when it is not a deliverable address. */
export function parseAddress(raw: string): { local: string; domain: string } | { error: string } {
  const at = raw.lastIndexOf('@');
  if (at <= 0 || at === raw.length - 1) return { error: 'is not an email address (expected local@domain)' };
  const local = raw.slice(0, at);
  const domain = normalizeDomain(raw.slice(at + 1));
  if (local.length > 64) return { error: 'has a local part over 64 characters (RFC 5321 §4.5.3.1.1)' };
  if (!DOT_ATOM.test(local) && !QUOTED.test(local)) return { error: 'has an invalid local part' };
  if (domain === null) return { error: 'has an invalid domain' };
  if (local.length + 1 + domain.length > 254) return { error: 'is longer than 254 characters' };
  return { local, domain };
}

/**
 * Parses exactly one mailbox in RFC 5322 form (`addr`, `Name <addr>`, `"Quoted, Name" <addr>`),
 * with nodemailer's address parser doing the tokenising. Returns the reason when it is not one
 * valid mailbox, phrased to follow the field name ("to[1] is not …").
 */
export function parseMailbox(text: string): Mailbox | { error: string } {
  if (/[\r\n]/.test(text)) return { error: 'contains a line break' };
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'is empty' };
  const parsed = addressparser(trimmed, { flatten: true });
  if (parsed.length !== 1) return { error: 'must hold exactly one address (use an array for several recipients)' };
  const one = parsed[0] as { name: string; address: string };
  const checked = parseAddress(one.address);
  if ('error' in checked) return { error: `"${one.address || trimmed}" ${checked.error}` };
  if (!trimmed.includes(one.address)) return { error: `"${trimmed}" is not an email address` };
  return { name: one.name, address: `${checked.local}@${checked.domain}`, local: checked.local, domain: checked.domain };
}
