import type { SmtpReply } from '../core/smtp-reply.js';

/**
 * What the rules read of a reply (core/smtp-reply.ts): the codes and the cleaned `message`, never
 * `raw`, so a reply quoted in a report classifies as it would have live.
 */
export type ReplyFacts = Pick<SmtpReply, 'code' | 'enhanced' | 'message'>;

/**
 * What one recipient's reply means: the outcome, the bounce class carried in
 * `failed` events' `details.bounce_class`, and whether the address joins the suppression list
 * (reason `hard_bounce`).
 */
export interface Classification {
  outcome: 'delivered' | 'deferred' | 'failed';
  /**
   * `hard`: the address is at fault (it does not exist, moved, is disabled); the only suppressing class.
   * `block`: a policy or reputation refusal of us or the message, not of the address.
   * `soft`: anything else that is not delivered (full mailbox, too big, sender-side problems, 4xx).
   */
  bounceClass: 'hard' | 'soft' | 'block' | null;
  suppress: boolean;
  /** Id of the rule in REPLY_RULES that matched, or `default`. */
  rule: string;
}

/** One classification rule; `source` is the RFC section or the real server reply it comes from. */
export interface ReplyRule {
  id: string;
  when: (reply: ReplyFacts) => boolean;
  outcome: Classification['outcome'];
  bounceClass: Classification['bounceClass'];
  suppress: boolean;
  source: string;
}

const is2xx = (r: ReplyFacts) => r.code >= 200 && r.code < 300;
const is4xx = (r: ReplyFacts) => r.code >= 400 && r.code < 500;
const is5xx = (r: ReplyFacts) => r.code >= 500 && r.code < 600;
/** The enhanced code's subject.detail (RFC 3463 §2) matches, whatever its class. */
const enhanced = (pattern: RegExp) => (r: ReplyFacts) =>
  r.enhanced !== null && pattern.test(r.enhanced.slice(r.enhanced.indexOf('.') + 1));
const says = (pattern: RegExp) => (r: ReplyFacts) => pattern.test(r.message);

/**
 * Reputation and policy wording. Matched before any address rule, so a reply that both blames the
 * address and mentions a block is a block: wrongly not suppressing costs one more attempt later,
 * wrongly suppressing loses a customer's recipient for good.
 */
const BLOCK_WORDING = new RegExp(
  [
    String.raw`\bblock(?:ed|ing)?\b`,
    String.raw`\b(?:black|block|deny|ban) ?list(?:ed|ing)?\b`,
    // "is listed in zen.spamhaus.org", but not Lotus Domino's user-unknown "User not listed in public Name & Address Book".
    String.raw`(?<!\bnot )\blisted (?:in|on|at|by)\b`,
    String.raw`\b(?:is|are|was|been|currently) listed\b`,
    String.raw`\b(?:spamhaus|spamcop|barracuda(?:central)?|sorbs|uceprotect|dnsbl|rbl|surbl|cloudmark|proofpoint)\b`,
    String.raw`\breputation\b`,
    String.raw`\bpolic(?:y|ies)\b`,
    String.raw`\bunsolicited\b`,
    String.raw`\bspam(?:my|mer|ming)?\b`,
    String.raw`\bcomplaints?\b`,
  ].join('|'),
  'i',
);

/** Plain-text forms of "this mailbox does not exist or is disabled", for replies without a telling enhanced code. */
const NO_MAILBOX_WORDING = new RegExp(
  [
    String.raw`\buser unknown\b`,
    String.raw`\bunknown (?:user|recipient|mailbox|address)\b`,
    String.raw`\bno such (?:user|mailbox|recipient|address|account)\b`,
    String.raw`\bno mailbox here\b`,
    String.raw`\bmailbox (?:is )?(?:unavailable|not found|does not exist|disabled|inactive)\b`,
    String.raw`\b(?:does not|doesn'?t|do not|don'?t) exist\b`,
    String.raw`\bdoesn'?t have an? [\w.-]+ account\b`,
    String.raw`\b(?:recipient|address) (?:address )?rejected\b`,
    String.raw`\brecipient (?:not found|unknown|invalid)\b`,
    String.raw`\baccount (?:is |has been )?(?:disabled|deactivated|inactive|suspended|discontinued|closed)\b`,
    String.raw`\binvalid (?:recipient|mailbox|address|user|account)\b`,
    String.raw`\buser (?:not found|does not exist)\b`,
    String.raw`\bunrouteable address\b`,
  ].join('|'),
  'i',
);

/** Replies about our envelope sender, not the recipient: the recipient must not be suppressed. */
const SENDER_WORDING =
  /\bsender (?:address |domain )?(?:is )?(?:rejected|denied|not found|unknown|invalid|does not exist|must resolve)\b|\bsender verif(?:y|ication) failed\b|\bdomain of sender address\b/i;

const MAILBOX_FULL_WORDING =
  /\bmailbox (?:is )?full\b|\bover ?quota\b|\bquota exceeded\b|\bexceeded (?:the )?storage allocation\b|\binsufficient (?:system )?storage\b/i;

const TOO_BIG_WORDING =
  /\b(?:message|mail) (?:size )?(?:is )?too (?:big|large)\b|\bmessage size exceeds\b|\bexceeds? (?:the )?(?:fixed )?(?:maximum )?(?:message )?size limit/i;

const GREYLIST_WORDING = /\bgr[ae]y-?list(?:ed|ing)?\b|\btry again later\b|\bcome back later\b/i;

/**
 * The rule table, first match wins. The basic code decides the outcome (RFC 5321 §4.2.1: 2yz done,
 * 4yz transient, 5yz permanent); the enhanced code (RFC 3463) and then the wording decide the class.
 */
export const REPLY_RULES: readonly ReplyRule[] = [
  {
    id: 'accepted',
    when: is2xx,
    outcome: 'delivered',
    bounceClass: null,
    suppress: false,
    source: 'RFC 5321 §4.2.1 (2yz: positive completion); "250 2.0.0 OK 1700000000 x1si123 - gsmtp" (Gmail)',
  },
  {
    // Retried like any 4xx; the class lets a give-up after retries say it was a block.
    id: 'transient-block',
    when: (r) => is4xx(r) && says(BLOCK_WORDING)(r),
    outcome: 'deferred',
    bounceClass: 'block',
    suppress: false,
    source:
      '"421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints" (Yahoo); "421-4.7.28 Our system has detected an unusual rate of unsolicited mail originating from your IP address." (Gmail)',
  },
  {
    id: 'transient-greylisted',
    when: (r) => is4xx(r) && says(GREYLIST_WORDING)(r),
    outcome: 'deferred',
    bounceClass: 'soft',
    suppress: false,
    source:
      'RFC 6647 (greylisting refuses with a 4yz temporary failure); "450 4.2.0 <x>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/example.com.html" (Postgrey); "421 4.7.0 Try again later, closing connection." (Gmail)',
  },
  {
    id: 'transient',
    when: is4xx,
    outcome: 'deferred',
    bounceClass: 'soft',
    suppress: false,
    source:
      'RFC 5321 §4.2.1 (4yz: transient negative completion); "452 4.2.2 The email account that you tried to reach is over quota." (Gmail)',
  },
  {
    // A blocked IP must never empty the customer's list, so block wording outranks
    // every address rule below, whatever enhanced code came with it (AT&T sends 5.3.0; Barracuda and Proofpoint send none).
    id: 'block-wording',
    when: (r) => is5xx(r) && says(BLOCK_WORDING)(r),
    outcome: 'failed',
    bounceClass: 'block',
    suppress: false,
    source:
      '"554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org" (Postfix with Spamhaus); "553 5.3.0 flpd575 DNSBL:RBL 521< 192.0.2.1 >_is_blocked" (AT&T)',
  },
  {
    // 5.7.x is security or policy status (RFC 3463 §3.8); the address is not at fault.
    id: 'policy-5.7.x',
    when: (r) => is5xx(r) && enhanced(/^7\.\d+$/)(r),
    outcome: 'failed',
    bounceClass: 'block',
    suppress: false,
    source:
      'RFC 3463 §3.8 (X.7.XXX security or policy status); "550-5.7.26 This mail is unauthenticated, which poses a security risk to the sender and Gmail users" (Gmail)',
  },
  {
    // RFC 3463 §3.2: X.1.7 and X.1.8 are about the sender's address. The recipient is fine; we are not.
    id: 'sender-address',
    when: (r) => is5xx(r) && (enhanced(/^1\.[78]$/)(r) || says(SENDER_WORDING)(r)),
    outcome: 'failed',
    bounceClass: 'soft',
    suppress: false,
    source:
      'RFC 3463 §3.2 (X.1.7 bad sender\'s mailbox address syntax, X.1.8 bad sender\'s system address); "553 5.1.8 <bounce@example.com>: Sender address rejected: Domain not found" (Postfix)',
  },
  {
    id: 'no-recipient-5.1.10',
    when: (r) => is5xx(r) && enhanced(/^1\.10$/)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    source:
      'RFC 7505 §4 (X.1.10 recipient address has null MX; Microsoft uses it for unknown recipients too); "550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup" (Microsoft 365)',
  },
  {
    id: 'mailbox-moved-5.1.6',
    when: (r) => is5xx(r) && enhanced(/^1\.6$/)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    source:
      'RFC 3463 §3.2 (X.1.6 destination mailbox has moved, no forwarding address); "550 5.1.6 Recipient addresses in this domain no longer accept mail" (Exchange)',
  },
  {
    // Hard bounces: 5.1.x (bad mailbox 5.1.1, other 5.1.0, bad domain 5.1.2, bad syntax 5.1.3…).
    id: 'bad-address-5.1.x',
    when: (r) => is5xx(r) && enhanced(/^1\.\d+$/)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    source:
      'RFC 3463 §3.2 (X.1.XXX addressing status); "550-5.1.1 The email account that you tried to reach does not exist." (Gmail); "553-5.1.2 We weren\'t able to find the recipient domain." (Gmail)',
  },
  {
    id: 'mailbox-disabled-5.2.1',
    when: (r) => is5xx(r) && enhanced(/^2\.1$/)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    source:
      'RFC 3463 §3.3 (X.2.1 mailbox disabled, not accepting messages); "550-5.2.1 The email account that you tried to reach is disabled." (Gmail)',
  },
  {
    // A full mailbox empties again: it is temporary in nature even when reported permanently, so
    // the message fails but the address stays sendable.
    id: 'mailbox-full',
    when: (r) => is5xx(r) && (enhanced(/^2\.2$/)(r) || says(MAILBOX_FULL_WORDING)(r)),
    outcome: 'failed',
    bounceClass: 'soft',
    suppress: false,
    source:
      'RFC 3463 §3.3 (X.2.2 mailbox full); "552-5.2.2 The email account that you tried to reach is over quota." (Gmail); RFC 5321 §4.2.3 "552 Requested mail action aborted: exceeded storage allocation"',
  },
  {
    // The message is at fault, not the address: retrying the same bytes fails again, so `failed`,
    // and the next, smaller message to this address must still go out, so no suppression.
    id: 'message-too-big',
    when: (r) => is5xx(r) && (enhanced(/^[23]\.[34]$/)(r) || says(TOO_BIG_WORDING)(r)),
    outcome: 'failed',
    bounceClass: 'soft',
    suppress: false,
    source:
      'RFC 3463 §3.4 (X.3.4 message too big for system), §3.3 (X.2.3 message length exceeds administrative limit); "552-5.3.4 Your message exceeded Google\'s message size limits." (Gmail)',
  },
  {
    // The plain-text forms of the no-such-mailbox codes are hard bounces too. Reached only when the
    // enhanced code is absent or generic (5.0.0, Outlook's 5.5.0, Microsoft's 5.4.1 directory
    // rejection), never one of the above.
    id: 'no-mailbox-wording',
    when: (r) => is5xx(r) && says(NO_MAILBOX_WORDING)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    source:
      '"550 5.5.0 Requested action not taken: mailbox unavailable" (Outlook.com); "554 delivery error: dd This user doesn\'t have a yahoo.com account" (Yahoo); "550 Unrouteable address" (Exim)',
  },
  {
    // Unknown permanent failures: we cannot tell that the address is at fault, so no suppression.
    id: 'permanent-other',
    when: is5xx,
    outcome: 'failed',
    bounceClass: 'soft',
    suppress: false,
    source:
      'RFC 5321 §4.2.1 (5yz: permanent negative completion); "554 5.4.14 Hop count exceeded - possible mail loop" (Exchange)',
  },
];

/**
 * A reply code outside 2yz/4yz/5yz is a protocol error by the server; retrying is safe because the
 * queue lifetime bounds it.
 */
const DEFAULT: Omit<Classification, 'rule'> = { outcome: 'deferred', bounceClass: 'soft', suppress: false };

/** Classifies one recipient's reply by the first matching rule of REPLY_RULES, else `default`. */
export function classifyReply(reply: ReplyFacts): Classification {
  const rule = REPLY_RULES.find((r) => r.when(reply));
  if (!rule) return { ...DEFAULT, rule: 'default' };
  return { outcome: rule.outcome, bounceClass: rule.bounceClass, suppress: rule.suppress, rule: rule.id };
}
