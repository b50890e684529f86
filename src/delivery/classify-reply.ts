import type { BounceReason } from '../core/bounce-reason.js';
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
  /** Why, in the shared taxonomy (core/bounce-reason.ts, docs/bounces.md); null when delivered. */
  reason: BounceReason | null;
}

/** One classification rule; `source` is the RFC section or the real server reply it comes from. */
export interface ReplyRule {
  id: string;
  when: (reply: ReplyFacts) => boolean;
  outcome: Classification['outcome'];
  bounceClass: Classification['bounceClass'];
  suppress: boolean;
  /** The reason in the shared taxonomy: fixed, or read from the reply when the rule covers several. */
  reason: BounceReason | null | ((reply: ReplyFacts) => BounceReason);
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
    String.raw`\brecipient name is not recognized\b`,
    String.raw`\binvalid (?:final delivery )?userid\b`,
    String.raw`\bnot listed in (?:public )?(?:Name & Address Book|Domino Directory)\b`,
    String.raw`\bno such (?:person|local user)\b`,
    String.raw`\bcheck if (?:the )?address is correct\b`,
    // Japanese servers: "ユーザーは…見つかりません" (not found), "リストにありません" (not in the list), "存在しません" (does not exist).
    String.raw`見つかりません|リストにありません|存在しません|宛先(?:不明|が見つかりません)`,
  ].join('|'),
  'i',
);

/** Sender authentication failures (RFC 7208 SPF, RFC 6376 DKIM, RFC 7489 DMARC): a block of us, not of the address. */
const SECURITY_WORDING =
  /\b(?:SPF|DKIM|DMARC)\b|\bnot allowed to send (?:mail )?from\b|\bunauthenticated\b|\bauthentication (?:required|failed)\b|\bmust use TLS\b|\bTLS (?:is )?required\b/i;

const SPAM_WORDING = /\bspam\b|\bjunk mail\b|\bbulk mail\b|\bunsolicited\b/i;
const VIRUS_WORDING = /\bvirus(?:es)?\b|\bmalware\b|\binfected\b|\bphishing\b/i;

/** Too many connections, messages or recipients: the address is fine, we went too fast. */
const RATE_WORDING =
  /\btoo many (?:connections|concurrent|sessions|messages|recipients|mails|emails|hops)\b|\brate(?:[ -]limit(?:ed|ing)?| that prevents)\b|\breceiving mail (?:at|too) (?:a )?(?:rate|fast|quickly)\b|\b(?:sending|message|connection) rate\b|\bthrottl(?:ed|ing)\b|\bexceeded (?:the )?(?:maximum )?(?:number of|allowed)\b|\btemporarily deferred\b/i;

/** A DNS answer that may change: "try again", a broken name server reply. Never proof the domain is gone. */
const TEMPORARY_DNS_WORDING =
  /,\s*try again\b|\bmalformed or unexpected name server reply\b|\btemporar(?:y|ily)\b|\btimed? ?out\b|\bSERVFAIL\b/i;

/** The recipient domain does not exist or has no mail host. */
const NO_HOST_WORDING =
  /\bhost (?:or domain name )?not found\b|\bno such domain\b|\bdomain (?:name )?(?:not found|does not exist|doesn'?t exist|is not reachable|unknown)\b|\bunknown (?:domain|host)\b|\bunrouteable mail domain\b|\bname service error\b|\bno mx (?:record|host)s?\b|\bnxdomain\b|\bhost unknown\b|\bdomain lookup failed\b|\bbad destination (?:mailbox address|system address)\b/i;

/** The recipient domain takes no mail (RFC 7505 null MX and its wording). */
const NOT_ACCEPTING_WORDING = /\b(?:host|domain) does not accept mail\b|\bnull MX\b/i;

const EXPIRED_WORDING =
  /\b(?:retry|delivery) time(?:out)? (?:exceeded|expired)\b|\bexpired\b|\bcould not be delivered (?:with)?in (?:the last )?\d+ (?:days?|hours?)\b|\btoo long in (?:the )?queue\b|\bgiving up\b|\bmessage (?:has been )?(?:in (?:the )?queue )?too long\b/i;

const NETWORK_WORDING =
  /\bconnection (?:refused|timed out|reset|lost|closed|dropped)\b|\btimed? ?out\b|\bnetwork (?:is )?unreachable\b|\bno route to host\b|\bmail (?:forwarding )?loop\b|\bhop count exceeded\b|\btoo many hops\b|\bcould not connect\b|\bunable to connect\b|\btemporary (?:lookup )?failure\b|\bservice (?:refused|not available|unavailable)\b/i;

const FILTER_WORDING =
  /\bfilter(?:ed|ing)?\b|\bcontent (?:rejected|refused|not accepted)\b|\battachment\b|\bnot (?:authori[sz]ed|permitted|allowed) to (?:send|post)\b|\bnot on the (?:allow|white|safe) ?list\b|\brejected by (?:the )?recipient\b|\bmay not (?:exist|have permission)\b|\bsender is not allowed\b/i;

const SYSTEM_WORDING =
  /\bsystem (?:error|failure|not available)\b|\binternal (?:server )?error\b|\blocal (?:error|configuration error)\b|\bdisk (?:is )?full\b|\bout of (?:disk )?(?:space|memory)\b|\bmailer error\b|\bunable to (?:deliver|process)\b|\bconfiguration error\b/i;

const SYNTAX_WORDING =
  /\bmalformed (?:recipient )?address\b|\bincorrectly constructed\b|\bsyntax error\b|\bcommand (?:not recognized|unrecognized)\b|\bbad sequence of commands\b|\bline too long\b|\bprotocol error\b/i;

/** The reason of a failure the more specific rules did not settle, from its codes and wording. */
export function reasonFromWording(r: ReplyFacts): BounceReason {
  const text = r.message;
  const e = r.enhanced === null ? '' : r.enhanced.slice(r.enhanced.indexOf('.') + 1);
  if (GREYLIST_WORDING.test(text) && r.code < 500) return 'greylisted';
  if (VIRUS_WORDING.test(text)) return 'virus_detected';
  if (SECURITY_WORDING.test(text)) return 'security_error';
  if (RATE_WORDING.test(text) || /^4\.(?:[1-9]|\d\d)$/.test(e) || (e === '7.0' && /\brate\b/i.test(text)))
    return 'rate_limited';
  if (SPAM_WORDING.test(text)) return 'spam_detected';
  if (BLOCK_WORDING.test(text)) return 'policy_blocked';
  if (SENDER_WORDING.test(text) || /^1\.[78]$/.test(e)) return 'sender_rejected';
  if (/^2\.2$/.test(e) || MAILBOX_FULL_WORDING.test(text)) return 'mailbox_full';
  if (/^(?:2\.3|3\.4)$/.test(e) || TOO_BIG_WORDING.test(text)) return 'message_too_big';
  if (e === '4.7' || EXPIRED_WORDING.test(text)) return 'expired';
  if (NOT_ACCEPTING_WORDING.test(text)) return 'not_accepting';
  if (TEMPORARY_DNS_WORDING.test(text) && (e === '4.4' || NO_HOST_WORDING.test(text))) return 'network_error';
  if (e === '1.2' || NO_HOST_WORDING.test(text)) return 'host_unknown';
  if (/^1\.\d+$/.test(e) || NO_MAILBOX_WORDING.test(text)) return 'user_unknown';
  if (e === '2.1') return 'mailbox_disabled';
  if (FILTER_WORDING.test(text)) return 'content_filtered';
  if (/^4\.\d+$/.test(e) || NETWORK_WORDING.test(text)) return 'network_error';
  if (/^7\.\d+$/.test(e)) return 'policy_blocked';
  if (/^6\.\d+$/.test(e)) return 'content_error';
  if (/^5\.\d+$/.test(e) || SYNTAX_WORDING.test(text)) return 'syntax_error';
  if (/^3\.\d+$/.test(e) || SYSTEM_WORDING.test(text)) return 'system_error';
  return 'undefined';
}

/** Block wording's reason: spam and virus wording say more than "policy". */
const blockReason = (r: ReplyFacts): BounceReason =>
  VIRUS_WORDING.test(r.message)
    ? 'virus_detected'
    : SECURITY_WORDING.test(r.message)
      ? 'security_error'
      : SPAM_WORDING.test(r.message)
        ? 'spam_detected'
        : 'policy_blocked';

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
    reason: null,
    source: 'RFC 5321 §4.2.1 (2yz: positive completion); "250 2.0.0 OK 1700000000 x1si123 - gsmtp" (Gmail)',
  },
  {
    // Retried like any 4xx; the class lets a give-up after retries say it was a block.
    id: 'transient-block',
    when: (r) => is4xx(r) && says(BLOCK_WORDING)(r),
    outcome: 'deferred',
    bounceClass: 'block',
    suppress: false,
    reason: blockReason,
    source:
      '"421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints" (Yahoo); "421-4.7.28 Our system has detected an unusual rate of unsolicited mail originating from your IP address." (Gmail)',
  },
  {
    id: 'transient-greylisted',
    when: (r) => is4xx(r) && says(GREYLIST_WORDING)(r),
    outcome: 'deferred',
    bounceClass: 'soft',
    suppress: false,
    reason: 'greylisted',
    source:
      'RFC 6647 (greylisting refuses with a 4yz temporary failure); "450 4.2.0 <x>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/example.com.html" (Postgrey); "421 4.7.0 Try again later, closing connection." (Gmail)',
  },
  {
    id: 'transient',
    when: is4xx,
    outcome: 'deferred',
    bounceClass: 'soft',
    suppress: false,
    reason: reasonFromWording,
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
    reason: blockReason,
    source:
      '"554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org" (Postfix with Spamhaus); "553 5.3.0 flpd575 DNSBL:RBL 521< 192.0.2.1 >_is_blocked" (AT&T)',
  },
  {
    // Before the 5.1.x and 5.2.1 rules: Gmail sends 5.2.1 for a recipient receiving mail too fast.
    id: 'rate-limited',
    when: (r) => is5xx(r) && says(RATE_WORDING)(r),
    outcome: 'failed',
    bounceClass: 'soft',
    suppress: false,
    reason: 'rate_limited',
    source:
      '"550-5.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered." (Gmail); "554 5.7.0 Too many connections" (constructed)',
  },
  {
    // SPF, DKIM and DMARC failures are about our domain, whatever address code comes with them
    // (Microsoft sends 5.1.0 for an SPF refusal).
    id: 'sender-authentication',
    when: (r) => is5xx(r) && says(SECURITY_WORDING)(r),
    outcome: 'failed',
    bounceClass: 'block',
    suppress: false,
    reason: 'security_error',
    source:
      'RFC 7208 §8.4 (SPF fail: 550 5.7.1); "550 5.1.0 192.0.2.1 is not allowed to send from <example.net> per it\'s SPF Record" (Microsoft 365)',
  },
  {
    // A null MX (RFC 7505) is the recipient domain saying it takes no mail at all, not a policy
    // block of us: Sendmail reports it as "550 Host does not accept mail" with 5.7.27.
    id: 'null-mx-wording',
    when: (r) => is5xx(r) && says(NOT_ACCEPTING_WORDING)(r) && !says(BLOCK_WORDING)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    reason: 'not_accepting',
    source:
      'RFC 7505 §3 (a null MX: the domain accepts no mail); "550 Host does not accept mail" (Sendmail 8.15, status 5.7.27)',
  },
  {
    // 5.7.x is security or policy status (RFC 3463 §3.8); the address is not at fault.
    id: 'policy-5.7.x',
    when: (r) => is5xx(r) && enhanced(/^7\.\d+$/)(r),
    outcome: 'failed',
    bounceClass: 'block',
    suppress: false,
    reason: (r) => (SECURITY_WORDING.test(r.message) ? 'security_error' : blockReason(r)),
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
    reason: 'sender_rejected',
    source:
      'RFC 3463 §3.2 (X.1.7 bad sender\'s mailbox address syntax, X.1.8 bad sender\'s system address); "553 5.1.8 <bounce@example.com>: Sender address rejected: Domain not found" (Postfix)',
  },
  {
    id: 'no-recipient-5.1.10',
    when: (r) => is5xx(r) && enhanced(/^1\.10$/)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    reason: (r) => (NOT_ACCEPTING_WORDING.test(r.message) ? 'not_accepting' : 'user_unknown'),
    source:
      'RFC 7505 §4 (X.1.10 recipient address has null MX; Microsoft uses it for unknown recipients too); "550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup" (Microsoft 365)',
  },
  {
    id: 'mailbox-moved-5.1.6',
    when: (r) => is5xx(r) && enhanced(/^1\.6$/)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    reason: 'mailbox_moved',
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
    reason: (r) => (r.enhanced?.endsWith('.1.2') ? 'host_unknown' : 'user_unknown'),
    source:
      'RFC 3463 §3.2 (X.1.XXX addressing status); "550-5.1.1 The email account that you tried to reach does not exist." (Gmail); "553-5.1.2 We weren\'t able to find the recipient domain." (Gmail)',
  },
  {
    id: 'mailbox-disabled-5.2.1',
    when: (r) => is5xx(r) && enhanced(/^2\.1$/)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    reason: 'mailbox_disabled',
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
    reason: 'mailbox_full',
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
    reason: 'message_too_big',
    source:
      'RFC 3463 §3.4 (X.3.4 message too big for system), §3.3 (X.2.3 message length exceeds administrative limit); "552-5.3.4 Your message exceeded Google\'s message size limits." (Gmail)',
  },
  {
    // X.4.4 "unable to route" given as permanent: the domain has no mail host (RFC 3463 §3.5).
    id: 'no-route-5.4.4',
    when: (r) => is5xx(r) && enhanced(/^4\.4$/)(r) && !says(TEMPORARY_DNS_WORDING)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    reason: 'host_unknown',
    source:
      'RFC 3463 §3.5 (X.4.4 unable to route); "Host or domain name not found. Name service error for name=example.org type=A: Host not found" (Postfix, 5.4.4)',
  },
  {
    id: 'no-host-wording',
    when: (r) =>
      is5xx(r) && (says(NO_HOST_WORDING)(r) || says(NOT_ACCEPTING_WORDING)(r)) && !says(TEMPORARY_DNS_WORDING)(r),
    outcome: 'failed',
    bounceClass: 'hard',
    suppress: true,
    reason: (r) => (NOT_ACCEPTING_WORDING.test(r.message) ? 'not_accepting' : 'host_unknown'),
    source:
      'RFC 7505 §3 (null MX: "550 5.1.10 Host does not accept mail"); "550 Unrouteable mail domain" (constructed from Exim); "No such domain." (Courier)',
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
    reason: 'user_unknown',
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
    reason: reasonFromWording,
    source:
      'RFC 5321 §4.2.1 (5yz: permanent negative completion); "554 5.4.14 Hop count exceeded - possible mail loop" (Exchange)',
  },
];

/**
 * A reply code outside 2yz/4yz/5yz is a protocol error by the server; retrying is safe because the
 * queue lifetime bounds it.
 */
const DEFAULT: Omit<Classification, 'rule' | 'reason'> = { outcome: 'deferred', bounceClass: 'soft', suppress: false };

/** Classifies one recipient's reply by the first matching rule of REPLY_RULES, else `default`. */
export function classifyReply(reply: ReplyFacts): Classification {
  const rule = REPLY_RULES.find((r) => r.when(reply));
  if (!rule) return { ...DEFAULT, rule: 'default', reason: 'undefined' };
  const reason = typeof rule.reason === 'function' ? rule.reason(reply) : rule.reason;
  return { outcome: rule.outcome, bounceClass: rule.bounceClass, suppress: rule.suppress, rule: rule.id, reason };
}
