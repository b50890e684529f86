import { apiError, type ApiError } from '../core/api-errors.js';
import { parseMailbox, type Mailbox } from '../core/mailbox.js';
import { controlCharacter, loneSurrogatePath } from '../core/text-checks.js';
import { validateCustomHeaders } from './custom-headers.js';
import type { SendRequest } from './send-request.js';
import type { TrackingOverrides } from '../tracking/settings.js';
import { jsonDepthExceeded, MAX_JSON_DEPTH } from './json-depth.js';
import { templateField } from '../templates/send-template.js';

const FIELDS = new Set([
  'from',
  'to',
  'subject',
  'html',
  'text',
  'tags',
  'headers',
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
/** `to` holds 1 to 50 recipients (docs/api.md, Fields). */
export const MAX_RECIPIENTS = 50;
const MAX_TAGS = 20;
const MAX_TAG_LENGTH = 100;
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

function validateRecipients(input: unknown): Mailbox[] | ApiError {
  if (input === undefined || input === null) return invalid('to', 'to is required: one address or an array of 1 to 50');
  const list = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(list)) return invalid('to', 'to must be a string or an array of strings');
  if (list.length === 0 || list.length > MAX_RECIPIENTS)
    return invalid('to', `to must hold 1 to ${MAX_RECIPIENTS} recipients, got ${list.length}`);
  const seen = new Set<string>();
  const out: Mailbox[] = [];
  for (const [i, item] of list.entries()) {
    const label = typeof input === 'string' ? 'to' : `to[${i}]`;
    if (typeof item !== 'string') return invalid('to', `${label} must be a string`);
    const mb = parseMailbox(item);
    if ('error' in mb) return invalid('to', `${label} ${mb.error}`);
    const key = mb.address.toLowerCase();
    if (seen.has(key)) continue; // duplicates (case-insensitive) are sent once
    seen.add(key);
    out.push(mb);
  }
  return out;
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
    if (!FIELDS.has(key))
      return invalid(
        key,
        `unknown field ${key}; expected from, to, subject, html, text, template, tags, headers, track_opens, track_clicks, unsubscribe`,
      );
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
  const to = validateRecipients(body.to);
  if (!Array.isArray(to)) return to;
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
  return {
    from,
    to,
    subject,
    html,
    text,
    tags,
    headers,
    tracking,
    ...(template !== null ? { template: { ...template, subject: subject === '' ? null : subject } } : {}),
  };
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
