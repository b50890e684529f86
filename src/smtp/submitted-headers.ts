/**
 * What the relay does with each header field of a submitted message (the owned set is
 * `isOwnedHeader` in send/custom-headers.ts; README, The SMTP relay). Everything not listed here is the
 * submitter's own and passes through byte for byte, raw 8-bit included.
 *
 * - remove: the field never leaves the service.
 * - replace: the field is written by the service (From: the possibly rewritten sender: docs/api.md, The from rules).
 * - keep-or-add: the submitted field is kept; the service adds one when it is missing.
 * - keep: owned, but it is the message's own structure or content, so it is kept as submitted.
 */
export type HeaderDisposition = 'remove' | 'replace' | 'keep-or-add' | 'keep';

interface HeaderRule {
  disposition: HeaderDisposition;
  why: string;
}

/** Exact (lower-cased) names. */
export const SUBMITTED_HEADER_RULES: Record<string, HeaderRule> = {
  bcc: { disposition: 'remove', why: 'RFC 5322 §3.6.3: Bcc recipients are hidden; the envelope carries them' },
  'idempotency-key': { disposition: 'remove', why: 'a request header for the service, not for recipients' },
  'return-path': {
    disposition: 'remove',
    why: 'RFC 5321 §4.4: added at final delivery; a message in transit should not carry one',
  },
  received: {
    disposition: 'remove',
    why: "the service adds its own trace field on delivery (RFC 5321 §4.4); the submitter's internal hops are not disclosed — an MSA may alter a submission (RFC 6409 §8)",
  },
  'dkim-signature': {
    disposition: 'remove',
    why: 'the service signs on delivery (RFC 6376); a submitted signature breaks once From is rewritten',
  },
  'authentication-results': {
    disposition: 'remove',
    why: 'RFC 8601 §5: results not made by this service cannot be trusted',
  },
  'feedback-id': { disposition: 'remove', why: 'set by the service (an owned header)' },
  sender: {
    disposition: 'remove',
    why: 'mail leaves from the verified domain only; a Sender (RFC 5322 §3.6.2) would name another',
  },
  from: { disposition: 'replace', why: "the From, rewritten to the key's domain with the display name kept" },
  'message-id': {
    disposition: 'keep-or-add',
    why: "RFC 5322 §3.6.4: SHOULD be present; the submitter's is kept for threading",
  },
  date: { disposition: 'keep-or-add', why: "RFC 5322 §3.6.1: required; the submitter's is kept" },
  to: { disposition: 'keep', why: "the message's own display of its recipients (RFC 5322 §3.6.3)" },
  cc: { disposition: 'keep', why: 'as To' },
  subject: { disposition: 'keep', why: "the message's own content" },
  'mime-version': { disposition: 'keep', why: "RFC 2045 §4: the body's MIME structure depends on it" },
};

/** Name prefixes (lower-cased), checked after the exact names. */
export const SUBMITTED_HEADER_PREFIXES: [string, HeaderRule][] = [
  [
    'x-posthorn-',
    { disposition: 'remove', why: 'relay options (relay-options.ts), read by the service and removed before delivery' },
  ],
  [
    'arc-',
    {
      disposition: 'remove',
      why: 'RFC 8617: ARC sets are added by intermediaries; a new submission starts without one',
    },
  ],
  [
    'content-',
    { disposition: 'keep', why: "RFC 2045 §3: the top-level part's type and encoding; attachments break without them" },
  ],
];

/** The disposition of a header field by its (any-case) name; `keep` for anything not in the tables. */
export function headerDisposition(name: string): HeaderDisposition {
  const lower = name.toLowerCase();
  // hasOwn: a field named `constructor` must not find Object.prototype's.
  if (Object.hasOwn(SUBMITTED_HEADER_RULES, lower)) return (SUBMITTED_HEADER_RULES[lower] as HeaderRule).disposition;
  for (const [prefix, rule] of SUBMITTED_HEADER_PREFIXES) if (lower.startsWith(prefix)) return rule.disposition;
  return 'keep';
}
