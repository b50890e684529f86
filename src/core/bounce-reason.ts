/**
 * Why a message was not delivered, one taxonomy for live SMTP replies (delivery/classify-reply.ts)
 * and for bounce reports (feedback/parse-report.ts), so a 550 at RCPT and the same 550 quoted in a
 * DSN give the same verdict (docs/bounces.md). Each reason says which bounce class it belongs to
 * and whether the address is suppressed: only for the address's own permanent failure (it does not
 * exist, its domain does not exist or takes no mail, it moved or was disabled).
 */
export const BOUNCE_REASONS = [
  'user_unknown',
  'host_unknown',
  'not_accepting',
  'mailbox_moved',
  'mailbox_disabled',
  'mailbox_full',
  'message_too_big',
  'content_filtered',
  'content_error',
  'spam_detected',
  'virus_detected',
  'policy_blocked',
  'security_error',
  'relay_denied',
  'sender_rejected',
  'rate_limited',
  'expired',
  'network_error',
  'system_error',
  'syntax_error',
  'greylisted',
  'undefined',
] as const;

export type BounceReason = (typeof BOUNCE_REASONS)[number];

export interface ReasonInfo {
  /** The bounce class of a permanent failure for this reason (`failed` events' `details.bounce_class`). */
  bounceClass: 'hard' | 'soft' | 'block';
  /** Whether a permanent failure for this reason suppresses the address (reason `hard_bounce`). */
  suppress: boolean;
  /** What it means, for docs/bounces.md and `posthorn bounce parse`. */
  meaning: string;
}

export const REASON_INFO: Readonly<Record<BounceReason, ReasonInfo>> = {
  user_unknown: { bounceClass: 'hard', suppress: true, meaning: 'the mailbox does not exist (5.1.1, "user unknown")' },
  host_unknown: {
    bounceClass: 'hard',
    suppress: true,
    meaning: 'the recipient domain does not exist or has no mail host (5.1.2, 5.4.4 permanent, NXDOMAIN)',
  },
  not_accepting: {
    bounceClass: 'hard',
    suppress: true,
    meaning: 'the recipient domain publishes that it takes no mail (null MX, RFC 7505, 5.1.10)',
  },
  mailbox_moved: {
    bounceClass: 'hard',
    suppress: true,
    meaning: 'the mailbox moved with no forwarding address (5.1.6)',
  },
  mailbox_disabled: {
    bounceClass: 'hard',
    suppress: true,
    meaning: 'the mailbox is disabled, suspended or closed (5.2.1)',
  },
  mailbox_full: { bounceClass: 'soft', suppress: false, meaning: 'the mailbox is over its quota (5.2.2, 4.2.2)' },
  message_too_big: { bounceClass: 'soft', suppress: false, meaning: 'the message is over a size limit (5.3.4, 5.2.3)' },
  content_filtered: {
    bounceClass: 'soft',
    suppress: false,
    meaning: "refused by the recipient's filter or rules (content, attachment type, allowed senders)",
  },
  content_error: { bounceClass: 'soft', suppress: false, meaning: 'the message itself is malformed (5.6.x)' },
  spam_detected: { bounceClass: 'block', suppress: false, meaning: 'the message was judged spam' },
  virus_detected: { bounceClass: 'block', suppress: false, meaning: 'the message was judged to carry a virus' },
  policy_blocked: {
    bounceClass: 'block',
    suppress: false,
    meaning: 'a policy or reputation block of the sending IP or domain (5.7.x, blocklists)',
  },
  security_error: {
    bounceClass: 'block',
    suppress: false,
    meaning: 'authentication of the sender failed (SPF, DKIM, DMARC, TLS required)',
  },
  relay_denied: { bounceClass: 'block', suppress: false, meaning: 'the server refused to relay for us' },
  sender_rejected: {
    bounceClass: 'soft',
    suppress: false,
    meaning: 'our envelope sender was refused (5.1.7, 5.1.8, "sender rejected", refused at MAIL FROM)',
  },
  rate_limited: {
    bounceClass: 'soft',
    suppress: false,
    meaning: 'too many connections, messages or recipients in a period',
  },
  expired: {
    bounceClass: 'soft',
    suppress: false,
    meaning: 'the reporting server gave up after retrying for its queue lifetime (4.4.7)',
  },
  network_error: {
    bounceClass: 'soft',
    suppress: false,
    meaning: 'connection refused, timed out or lost, DNS temporarily failing, routing loop (4.4.x)',
  },
  system_error: {
    bounceClass: 'soft',
    suppress: false,
    meaning: 'a fault of the receiving system (5.3.x, 4.3.x, disk full, local configuration)',
  },
  syntax_error: {
    bounceClass: 'soft',
    suppress: false,
    meaning: 'a protocol or command syntax error between the servers (5.5.x)',
  },
  greylisted: { bounceClass: 'soft', suppress: false, meaning: 'greylisting: try again later (RFC 6647)' },
  undefined: { bounceClass: 'soft', suppress: false, meaning: 'a failure whose cause the report does not say' },
};

/** Reasons that suppress, for tests and docs. */
export const SUPPRESSING_REASONS: readonly BounceReason[] = BOUNCE_REASONS.filter((r) => REASON_INFO[r].suppress);
