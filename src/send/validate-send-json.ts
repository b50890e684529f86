import { apiError, type ApiError } from '../core/api-errors.js';
import { parseSendAt } from './send-at.js';
import { parseMailbox, type Mailbox } from '../core/mailbox.js';
import { controlCharacter, loneSurrogatePath } from '../core/text-checks.js';
import { validateCustomHeaders } from './custom-headers.js';
import { allRecipients, type SendRequest } from './send-request.js';
import { validateAttachments, type Attachment } from './attachments.js';
import { BODY_LIMIT } from '../core/limits.js';
import type { TrackingOverrides } from '../tracking/settings.js';
import { jsonDepthExceeded, MAX_JSON_DEPTH } from './json-depth.js';
import { templateField } from '../templates/send-template.js';

const FIELDS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'reply_to',
  'subject',
  'html',
  'text',
  'tags',
  'metadata',
  'send_at',
  'headers',
  'attachments',
  'template',
  'variables',
  'track_opens',
  'track_clicks',
  'unsubscribe',
]);
/** The per-message overrides of the domain's tracking defaults, JSON booleans. */
const TRACKING_FIELDS = [
  ['track_opens', 'opens'],
  ['track_clicks', 'clicks'],
  ['unsubscribe', 'unsubscribe'],
] as const;
/** `to`, `cc` and `bcc` together hold 1 to 50 distinct recipients (docs/api.md, Fields). */
export const MAX_RECIPIENTS = 50;
const MAX_TAGS = 20;
const MAX_TAG_LENGTH = 100;
/** `metadata` (docs/api.md, Fields): a flat object of strings, for the caller's own ids. */
export const MAX_METADATA_KEYS = 20;
export const MAX_METADATA_KEY = 40;
export const MAX_METADATA_VALUE = 500;
/** The fields of a send body, as the unknown-field refusal lists them. */
const KNOWN =
  'from, to, cc, bcc, reply_to, subject, html, text, template, attachments, tags, metadata, headers, track_opens, track_clicks, unsubscribe, send_at';
const MAX_SUBJECT = 998;

const invalid = (field: string, message: string): ApiError => apiError('invalid_request', message, field);

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function parseJsonObject(
  contentType: string | undefined,
  raw: Buffer | undefined,
): { body: Record<string, unknown> } | { error: ApiError } {
  // Requests with a body carry Content-Type: application/json.
  if (contentType === undefined || !/^application\/json\s*(;|$)/i.test(contentType.trim())) {
    return { error: invalid('Content-Type', 'Content-Type must be application/json') };
  }
  if (raw === undefined || raw.length === 0)
    return { error: invalid('body', 'request body is empty; expected a JSON object') };
  let text: string;
  try {
    // RFC 8259 §8.1: JSON is UTF-8. Buffer#toString would turn invalid bytes into U+FFFD, silently
    // changing what the caller sent, so they are refused instead.
    text = UTF8.decode(raw);
  } catch {
    return {
      error: invalid('body', 'request body is not valid UTF-8 (RFC 8259 §8.1); send the JSON encoded as UTF-8'),
    };
  }
  // Depth first, on the bytes: a deeply nested body is refused before the parser spends time on it.
  const deep = jsonDepthExceeded(raw);
  if (deep !== -1)
    return {
      error: invalid(
        'body',
        `request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at byte ${deep}); at most ${MAX_JSON_DEPTH} are allowed`,
      ),
    };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return { error: invalid('body', `request body is not valid JSON: ${(err as Error).message}`) };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { error: invalid('body', 'request body must be a JSON object') };
  return { body: body as Record<string, unknown> };
}

type AddressField = 'to' | 'cc' | 'bcc' | 'reply_to';

/**
 * An address field: one address or an array of them. `to` must hold 1 to 50; the others may be
 * absent (or null) or empty. Duplicates within the field (case-insensitive) are kept once.
 */
function validateAddresses(field: AddressField, input: unknown): Mailbox[] | ApiError {
  const required = field === 'to';
  if (input === undefined || input === null)
    return required ? invalid('to', `to is required: one address or an array of 1 to ${MAX_RECIPIENTS}`) : [];
  const list = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(list)) return invalid(field, `${field} must be a string or an array of strings`);
  if ((required && list.length === 0) || list.length > MAX_RECIPIENTS)
    return invalid(
      field,
      `${field} must hold ${required ? 1 : 0} to ${MAX_RECIPIENTS} ${field === 'reply_to' ? 'addresses' : 'recipients'}, got ${list.length}`,
    );
  const seen = new Set<string>();
  const out: Mailbox[] = [];
  for (const [i, item] of list.entries()) {
    const label = typeof input === 'string' ? field : `${field}[${i}]`;
    if (typeof item !== 'string') return invalid(field, `${label} must be a string`);
    const mb = parseMailbox(item);
    if ('error' in mb) return invalid(field, `${label} ${mb.error}`);
    const key = mb.address.toLowerCase();
    if (seen.has(key)) continue; // duplicates (case-insensitive) are sent once
    seen.add(key);
    out.push(mb);
  }
  return out;
}

/**
 * `to`, `cc` and `bcc` together: at most MAX_RECIPIENTS distinct recipients; the refusal names the
 * field whose addresses go past it.
 */
function checkRecipientTotal(req: Pick<SendRequest, 'to' | 'cc' | 'bcc'>): ApiError | null {
  const cc = req.cc ?? [];
  const total = allRecipients(req).length;
  if (total <= MAX_RECIPIENTS) return null;
  const field = allRecipients({ to: req.to, cc }).length > MAX_RECIPIENTS ? 'cc' : 'bcc';
  return invalid(
    field,
    `to, cc and bcc together may hold at most ${MAX_RECIPIENTS} distinct recipients; with ${field} they hold ${total}`,
  );
}

const fail = (field: string, message: string) => ({ error: invalid(field, message) });

/** `metadata`: a flat object of string values; the error names `metadata` or `metadata.<key>`. */
// A value, not a union with ApiError: caller metadata may itself have `type` and `message` keys.
function validateMetadata(input: unknown): { metadata: Record<string, string> } | { error: ApiError } {
  if (input === undefined || input === null) return { metadata: {} };
  if (typeof input !== 'object' || Array.isArray(input))
    return fail('metadata', 'metadata must be an object of names to string values');
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > MAX_METADATA_KEYS)
    return fail('metadata', `metadata may hold at most ${MAX_METADATA_KEYS} keys, got ${entries.length}`);
  const out: Record<string, string> = {};
  for (const [key, value] of entries) {
    const field = `metadata.${key}`;
    if (key.trim() === '' || key.length > MAX_METADATA_KEY || controlCharacter(key, false) !== null)
      return fail(
        field,
        `metadata key "${key}" must be 1 to ${MAX_METADATA_KEY} characters, not blank, without control characters`,
      );
    if (typeof value !== 'string')
      return fail(field, `${field} must be a string (metadata is flat: no numbers, objects or arrays)`);
    if (value.length > MAX_METADATA_VALUE)
      return fail(field, `${field} is longer than ${MAX_METADATA_VALUE} characters`);
    out[key] = value;
  }
  return { metadata: out };
}

/**
 * The message's content as delivered: html and text as UTF-8, attachments decoded, at most
 * BODY_LIMIT in all (docs/api.md, Attachments); the refusal names the field that goes past it.
 */
function checkContentSize(html: string | null, text: string | null, attachments: Attachment[]): ApiError | null {
  let total = 0;
  const parts: [string, number][] = [
    ['html', html === null ? 0 : Buffer.byteLength(html)],
    ['text', text === null ? 0 : Buffer.byteLength(text)],
    ...attachments.map((a, i): [string, number] => [`attachments[${i}].content`, a.size]),
  ];
  for (const [field, bytes] of parts) {
    total += bytes;
    if (total > BODY_LIMIT)
      return apiError(
        'payload_too_large',
        `the message's content (html, text and decoded attachments) is over ${BODY_LIMIT} bytes (10 MiB) with ${field}`,
        field,
      );
  }
  return null;
}

function validateTags(input: unknown): string[] | ApiError {
  if (input === undefined) return [];
  if (!Array.isArray(input)) return invalid('tags', 'tags must be an array of strings');
  if (input.length > MAX_TAGS) return invalid('tags', `tags may hold at most ${MAX_TAGS} entries`);
  const out: string[] = [];
  for (const [i, t] of input.entries()) {
    if (typeof t !== 'string' || t.trim() === '' || t.length > MAX_TAG_LENGTH || /[\p{Cc}]/u.test(t)) {
      return invalid(
        'tags',
        `tags[${i}] must be a non-empty string of at most ${MAX_TAG_LENGTH} characters without control characters`,
      );
    }
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

function validateTracking(body: Record<string, unknown>): TrackingOverrides | ApiError {
  const out: TrackingOverrides = {};
  for (const [field, key] of TRACKING_FIELDS) {
    const v = body[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') return invalid(field, `${field} must be true or false, got ${JSON.stringify(v)}`);
    out[key] = v;
  }
  return out;
}

function optionalString(body: Record<string, unknown>, field: 'html' | 'text'): string | null | ApiError {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return invalid(field, `${field} must be a string`);
  return v === '' ? null : v;
}

/**
 * The validate step for POST /v1/send (docs/api.md, Fields): a SendRequest,
 * or 400 `invalid_request` whose `field` names the first bad field.
 */
export function validateSendJson(contentType: string | undefined, raw: Buffer | undefined): SendRequest | ApiError {
  const parsed = parseJsonObject(contentType, raw);
  if ('error' in parsed) return parsed.error;
  const body = parsed.body;
  for (const key of Object.keys(body)) {
    if (!FIELDS.has(key)) return invalid(key, `unknown field ${key}; expected ${KNOWN}`);
  }
  for (const key of Object.keys(body)) {
    const bad = loneSurrogatePath(body[key], key);
    if (bad !== null)
      return invalid(
        key,
        `${bad} contains a lone surrogate (an unpaired \\uD800-\\uDFFF escape), which is not a character; send the character itself or its full surrogate pair`,
      );
  }
  // A template is the other body source (docs/api.md, Sending with a template): checked here, rendered by the pipeline.
  const template = templateField(body);
  if (template !== null && 'type' in template) return template;
  if (typeof body.from !== 'string')
    return invalid('from', body.from === undefined ? 'from is required' : 'from must be a string');
  const from = parseMailbox(body.from);
  if ('error' in from) return invalid('from', `from ${from.error}`);
  const to = validateAddresses('to', body.to);
  if (!Array.isArray(to)) return to;
  const cc = validateAddresses('cc', body.cc);
  if (!Array.isArray(cc)) return cc;
  const bcc = validateAddresses('bcc', body.bcc);
  if (!Array.isArray(bcc)) return bcc;
  const tooMany = checkRecipientTotal({ to, cc, bcc });
  if (tooMany !== null) return tooMany;
  const replyTo = validateAddresses('reply_to', body.reply_to);
  if (!Array.isArray(replyTo)) return replyTo;
  // With a template, subject is optional: the template's is rendered unless the send gives its own.
  const subject = template !== null && body.subject === undefined ? '' : validateSubject(body.subject);
  if (typeof subject !== 'string') return subject;
  const html = optionalString(body, 'html');
  if (html !== null && typeof html !== 'string') return html;
  const text = optionalString(body, 'text');
  if (text !== null && typeof text !== 'string') return text;
  // With no body source at all, the field named is `html`.
  if (template === null && html === null && text === null)
    return invalid('html', 'one of html or text (or a template) is required');
  const tags = validateTags(body.tags);
  if (!Array.isArray(tags)) return tags;
  const headers = validateCustomHeaders(body.headers);
  if (!Array.isArray(headers)) return headers;
  const tracking = validateTracking(body);
  if ('type' in tracking) return tracking;
  const meta = validateMetadata(body.metadata);
  if ('error' in meta) return meta.error;
  const metadata = meta.metadata;
  const attachments = validateAttachments(body.attachments);
  if (!Array.isArray(attachments)) return attachments;
  const tooLarge = checkContentSize(html, text, attachments);
  if (tooLarge !== null) return tooLarge;
  let sendAt: number | undefined;
  if (body.send_at !== undefined && body.send_at !== null) {
    const parsedAt = parseSendAt(body.send_at, 'send_at');
    if ('error' in parsedAt) return invalid('send_at', parsedAt.error);
    sendAt = parsedAt.at;
  }
  const req: SendRequest = { from, to, subject, html, text, tags, headers, tracking };
  // The additions are set only when given, so a request without them is the value it always was.
  if (cc.length > 0) req.cc = cc;
  if (bcc.length > 0) req.bcc = bcc;
  if (replyTo.length > 0) req.replyTo = replyTo;
  if (attachments.length > 0) req.attachments = attachments;
  if (Object.keys(metadata).length > 0) req.metadata = metadata;
  if (template !== null) req.template = { ...template, subject: subject === '' ? null : subject };
  if (sendAt !== undefined) req.sendAt = sendAt;
  return req;
}

function validateSubject(value: unknown): string | ApiError {
  if (typeof value !== 'string')
    return invalid('subject', value === undefined ? 'subject is required' : 'subject must be a string');
  const subject = value.trim();
  if (subject === '') return invalid('subject', 'subject must not be empty');
  if (/[\r\n\0]/.test(subject)) return invalid('subject', 'subject must not contain CR, LF or NUL');
  const control = controlCharacter(subject);
  if (control !== null) return invalid('subject', `subject must not contain control characters; found ${control}`);
  if (subject.length > MAX_SUBJECT) return invalid('subject', `subject is longer than ${MAX_SUBJECT} characters`);
  return subject;
}
