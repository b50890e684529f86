import { createHash } from 'node:crypto';
import { apiError, type ApiError } from '../core/api-errors.js';
import { parseAddress, parseMailbox, type Mailbox } from '../core/mailbox.js';
import { controlCharacter } from '../core/text-checks.js';
import { splitMessage, type HeaderField } from '../mime/split-message.js';
import { parseAddressList } from '../mime/nodemailer-lib.js';
import { isValidIdempotencyKey } from '../send/idempotency.js';
import { decodeEncodedWords, fieldValue } from '../mime/header-text.js';
import { RELAY_HEADERS, type RelayOptions } from './relay-options.js';

/** What the relay reads from a message received over SMTP, for the submit pipeline. */
export interface Submission {
  /** The one mailbox of the From header (RFC 5322 §3.6.2), display name decoded. */
  from: Mailbox;
  /** The Subject, unfolded and RFC 2047-decoded; '' when absent. */
  subject: string;
  /** The envelope recipients (RCPT TO), distinct case-insensitively (a duplicate is sent once), in order. */
  recipients: Mailbox[];
  tags: string[];
  idempotencyKey: string | undefined;
  options: RelayOptions;
  /** SHA-256 of the envelope and the raw bytes: equal for a byte-identical retry (docs/api.md, Idempotency). */
  fingerprint: string;
}

/** A refusal, as the HTTP API would give it (`field` names the header or `to`). */
export interface SubmissionError {
  error: ApiError;
}

export interface Envelope {
  mailFrom: string;
  rcptTo: string[];
}

/**
 * Recipients per relayed message: RFC 5321 §4.5.3.1.8 has a server take at least 100. (The HTTP
 * API's limit of 50 is for its `to` field: docs/api.md, Fields.)
 */
export const RELAY_MAX_RECIPIENTS = 100;

/** RFC 5322 §3.6: fields that may occur at most once (From exactly once), plus the relay's own. */
const AT_MOST_ONCE = new Set([
  'date',
  'from',
  'sender',
  'reply-to',
  'to',
  'cc',
  'bcc',
  'message-id',
  'in-reply-to',
  'references',
  'subject',
  'idempotency-key',
]);

// RFC 5322 §2.2 / §3.6.8: printable ASCII but the colon; WSP before the colon is obsolete syntax (§4.5).
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+[ \t]*$/;

const refuse = (message: string, field: string): SubmissionError => ({
  error: apiError('invalid_request', message, field),
});

/** The field name as the submitter wrote it, for messages. */
const writtenName = (f: HeaderField): string => f.text.slice(0, f.text.indexOf(':')).replace(/[ \t]+$/, '');

/**
 * The first line of the header section that is not a `name: value` field, or null. Such a line is
 * usually a body that was sent without the empty line before it (RFC 5322 §2.1); splitMessage would
 * skip it, so the rewrite would silently lose it.
 */
function firstNonField(raw: Buffer, bodyStart: number): string | null {
  for (const line of raw.toString('latin1', 0, bodyStart).split(/\r?\n(?![ \t])/)) {
    if (line === '' || line === '\r') continue;
    const colon = line.indexOf(':');
    if (colon <= 0 || !FIELD_NAME.test(line.slice(0, colon))) return line;
  }
  return null;
}

/** Parses a From value as exactly one valid mailbox, its display name RFC 2047-decoded. */
export function parseFromValue(value: string): Mailbox | { error: string } {
  const count = value.trim() === '' ? 0 : parseAddressList(value).length;
  if (count !== 1)
    return { error: `must hold exactly one mailbox, got ${count} (RFC 5322 §3.6.2; the relay takes no Sender)` };
  const mb = parseMailbox(value);
  if ('error' in mb) return mb;
  const name = decodeEncodedWords(mb.name);
  const control = controlCharacter(name);
  if (control !== null) return { error: `has a display name that decodes to a control character (${control})` };
  return { ...mb, name };
}

function parseRecipients(rcptTo: string[]): Mailbox[] | SubmissionError {
  const seen = new Set<string>();
  const out: Mailbox[] = [];
  for (const rcpt of rcptTo) {
    const checked = parseAddress(rcpt);
    if ('error' in checked) return refuse(`recipient "${rcpt}" ${checked.error}`, 'to');
    const address = `${checked.local}@${checked.domain}`;
    if (seen.has(address.toLowerCase())) continue; // duplicates (case-insensitive) are sent once
    seen.add(address.toLowerCase());
    out.push({ name: '', address, local: checked.local, domain: checked.domain });
  }
  if (out.length === 0 || out.length > RELAY_MAX_RECIPIENTS)
    return refuse(`a message takes 1 to ${RELAY_MAX_RECIPIENTS} distinct recipients, got ${out.length}`, 'to');
  return out;
}

/**
 * Reads a message received by the relay: From, Subject, envelope recipients, tags, options and the
 * Idempotency-Key from the header section only (the body, attachments included, is never parsed).
 * Refuses a missing or multiple From, repeated single-occurrence fields, unknown `X-Posthorn-*`.
 * Expects data that passed the data guard (CRLF line ends).
 */
export function parseSubmission(raw: Buffer, envelope: Envelope): Submission | SubmissionError {
  const { fields, bodyStart } = splitMessage(raw);
  const stray = firstNonField(raw, bodyStart);
  if (stray !== null) {
    return refuse(
      `the header section holds a line that is not a header field ("${stray.slice(0, 40)}"); an empty line must separate the headers from the body (RFC 5322 §2.1)`,
      'headers',
    );
  }
  const seen = new Set<string>();
  let from: HeaderField | undefined;
  let subject = '';
  let idempotencyKey: string | undefined;
  const relay = { tags: [] as string[], options: {} as RelayOptions };
  for (const f of fields) {
    const name = writtenName(f);
    if ((AT_MOST_ONCE.has(f.name) || f.name.startsWith('x-posthorn-')) && seen.has(f.name)) {
      return refuse(`${name} appears more than once (RFC 5322 §3.6 allows one)`, name);
    }
    seen.add(f.name);
    // RFC 5322 §3.2.5 unstructured text and §3.2.3 atext have no control characters (a tab is folding
    // whitespace); an encoded-word can smuggle one in too, so the decoded Subject is checked as well.
    const control = controlCharacter(fieldValue(f.text));
    if (control !== null)
      return refuse(`${name} holds a control character (${control}); header fields take none (RFC 5322 §3.2.5)`, name);
    if (f.name === 'from') from = f;
    else if (f.name === 'subject') {
      subject = decodeEncodedWords(fieldValue(f.text));
      const decoded = controlCharacter(subject);
      if (decoded !== null) return refuse(`${name} decodes to text with a control character (${decoded})`, name);
    } else if (f.name === 'idempotency-key') {
      idempotencyKey = fieldValue(f.text);
      if (!isValidIdempotencyKey(idempotencyKey))
        return refuse('Idempotency-Key must be 1 to 255 printable ASCII characters', 'Idempotency-Key');
    } else if (f.name.startsWith('x-posthorn-')) {
      const known = RELAY_HEADERS.get(f.name);
      if (known === undefined) {
        return refuse(
          `unknown header ${name}; the relay takes ${[...RELAY_HEADERS.values()].map((h) => h.name).join(', ')}`,
          name,
        );
      }
      const applied = known.apply(decodeEncodedWords(fieldValue(f.text)), relay);
      if (!applied.ok) return refuse(applied.message, known.name);
    }
  }
  // RFC 5322 §3.6: From is required; no fallback to MAIL FROM, which is the bounce address.
  if (from === undefined) return refuse('the message has no From header (RFC 5322 §3.6 requires one)', 'From');
  const sender = parseFromValue(fieldValue(from.text));
  if ('error' in sender) return refuse(`From header ${sender.error}`, 'From');
  const recipients = parseRecipients(envelope.rcptTo);
  if (!Array.isArray(recipients)) return recipients;
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([envelope.mailFrom, recipients.map((r) => r.address)]))
    .update('\n')
    .update(raw)
    .digest('hex');
  return { from: sender, subject, recipients, tags: relay.tags, idempotencyKey, options: relay.options, fingerprint };
}
