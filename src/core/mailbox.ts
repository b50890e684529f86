import { normalizeDomain } from './domain-name.js';
import { controlCharacter } from './text-checks.js';

/** A parsed `Name <local@domain>` or bare `local@domain`. */
export interface Mailbox {
  name: string;
  /** `local@domain` with the domain lower-cased A-labels; the local part as given. */
  address: string;
  local: string;
  domain: string;
}

// RFC 5322 §3.2.3 atext, for a dot-atom local part.
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/** Splits and checks a bare address; null with the reason when it is not a deliverable address. */
export function parseAddress(raw: string): { local: string; domain: string } | { error: string } {
  const at = raw.lastIndexOf('@');
  if (at <= 0 || at === raw.length - 1) return { error: 'is not an email address (expected local@domain)' };
  const local = raw.slice(0, at);
  const domain = normalizeDomain(raw.slice(at + 1));
  // RFC 5321 §4.1.2 allows a quoted local part ("john doe"@example.org), but RFC 5321 §4.1.2 also
  // says it SHOULD NOT be used, most mail systems refuse it, and each layer here (SMTP envelope,
  // suppression list, DKIM headers) would have to keep the quotes: refused by name instead.
  if (local.startsWith('"'))
    return {
      error: 'has a quoted local part ("…"@domain), which Posthorn does not send to; use the address without quotes',
    };
  if (local.length > 64) return { error: 'has a local part over 64 characters (RFC 5321 §4.5.3.1.1)' };
  if (!DOT_ATOM.test(local))
    return {
      error: `has an invalid local part "${local}" (RFC 5322 §3.4.1 dot-atom: letters, digits, ${"!#$%&'*+/=?^_`{|}~-"} and single dots)`,
    };
  if (domain === null) return { error: 'has an invalid domain' };
  if (local.length + 1 + domain.length > 254) return { error: 'is longer than 254 characters' };
  return { local, domain };
}

// RFC 5322 §3.2.3 atext and the space, plus "." (§4.1 obs-phrase, as in "Dr. Smith") and any
// non-ASCII character (RFC 6532 §3.2): an unquoted display name made of these is one phrase.
const UNQUOTED_NAME = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~ .\u0080-\u{10FFFF}-]*$/u;
// RFC 5322 §3.2.4 quoted-string: printable characters but " and \, or a backslash pair.
const QUOTED_NAME = /^"((?:[^"\\]|\\.)*)"$/su;

/** The display name of `Name <addr>`, unquoted; or why it is not one phrase. */
function displayName(phrase: string): { name: string } | { error: string } {
  if (phrase === '') return { name: '' };
  const quoted = QUOTED_NAME.exec(phrase);
  if (quoted) return { name: (quoted[1] as string).replace(/\\(.)/gsu, '$1') };
  if (UNQUOTED_NAME.test(phrase)) return { name: phrase.replace(/\s+/g, ' ') };
  const special = /[^A-Za-z0-9!#$%&'*+/=?^_`{|}~ .\u0080-\u{10FFFF}-]/u.exec(phrase)?.[0] ?? '';
  return {
    error: `has a display name "${phrase}" with "${special}" in it; put the name in double quotes ("${phrase.replace(/(["\\])/g, '\\$1')}" <address>)`,
  };
}

/**
 * Parses exactly one mailbox in RFC 5322 §3.4 form: `addr`, `<addr>`, `Name <addr>` or
 * `"Quoted, Name" <addr>`. Written by hand because nodemailer's address parser, used before, is
 * lenient by design: it turns `A x@gmail.com` into the display name "A" for x@gmail.com, which a
 * caller who mistyped would never see. Returns the reason when `text` is not one valid mailbox,
 * phrased to follow the field name ("to[1] is not …").
 */
export function parseMailbox(text: string): Mailbox | { error: string } {
  if (/[\r\n]/.test(text)) return { error: 'contains a line break' };
  const control = controlCharacter(text); // a tab is folding whitespace (RFC 5322 §3.2.2)
  if (control !== null) return { error: `contains a control character (${control})` };
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'is empty' };
  let name = '';
  let address: string;
  if (trimmed.endsWith('>')) {
    const open = trimmed.lastIndexOf('<');
    if (open === -1) return { error: `"${trimmed}" has a ">" without a "<"` };
    address = trimmed.slice(open + 1, -1).trim();
    const phrase = displayName(trimmed.slice(0, open).trim());
    if ('error' in phrase) return phrase;
    name = phrase.name;
  } else {
    address = trimmed;
    if ((address.match(/@/g) ?? []).length > 1 && /[,;\s]/.test(address))
      return { error: 'must hold exactly one address (use an array for several recipients)' };
    if (/[<>]/.test(address)) return { error: `"${trimmed}" has a "<" without a closing ">"` };
    if (/\s/.test(address) && !address.startsWith('"')) {
      return {
        error: `"${trimmed}" is not an email address: a display name goes before the address in angle brackets, as in "Name <local@domain>"`,
      };
    }
  }
  const checked = parseAddress(address);
  if ('error' in checked) return { error: `"${address || trimmed}" ${checked.error}` };
  return { name, address: `${checked.local}@${checked.domain}`, local: checked.local, domain: checked.domain };
}
