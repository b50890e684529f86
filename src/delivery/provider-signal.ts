import { parseSmtpReply, type SmtpReply } from '../core/smtp-reply.js';
import type { ReplyFacts } from './classify-reply.js';

/**
 * What a reply says about the provider as a whole, apart from the recipient's own outcome
 * (classify-reply.ts): slow down (`throttle`), or stop sending from this IP (`block`). Read by
 * provider-shaping.ts to lower a provider's pace and to suspend it (docs/delivery.md).
 */
export type ProviderSignal = { kind: 'throttle'; rule: string } | { kind: 'block'; rule: string };

/** One signal rule; `source` is the RFC section or real server reply it comes from. */
export interface SignalRule {
  id: string;
  kind: ProviderSignal['kind'];
  when: (reply: ReplyFacts) => boolean;
  source: string;
}

/** Greylisting (RFC 6647) is about one sender/recipient pair, not about our pace. */
const GREYLIST_WORDING = /\bgr[ae]y-?list(?:ed|ing)?\b/i;

/** Our pace, as a whole: connections, messages, rate. Not "receiving mail at a rate" (one recipient's). */
const PACE_WORDING =
  /\btoo many (?:connections|concurrent|sessions|messages|mails|emails)\b|\brate[ -]limit(?:ed|ing)?\b|\bthrottl(?:ed|ing)\b|\bunexpected volume\b|\b(?:sending|message|connection) rate\b/i;

/** The sending IP's reputation or a blocklist: a refusal of us (this node), not of the recipient. */
const IP_BLOCK_WORDING = new RegExp(
  [
    String.raw`\bblock(?:ed|ing)?\b`,
    String.raw`\b(?:black|block|deny|ban) ?list(?:ed|ing)?\b`,
    String.raw`(?<!\bnot )\blisted (?:in|on|at|by)\b`,
    String.raw`\b(?:is|are|was|been|currently) listed\b`,
    String.raw`\b(?:spamhaus|spamcop|barracuda(?:central)?|sorbs|uceprotect|dnsbl|rbl|cloudmark|proofpoint)\b`,
    String.raw`\breputation\b`,
  ].join('|'),
  'i',
);

/**
 * Per-recipient or per-message refusals that carry block words: a recipient's own block list, a
 * relay refusal, sender authentication (a domain's SPF/DKIM/DMARC, not the IP), content filters.
 */
const NOT_IP_WORDING =
  /\b(?:recipient|mailbox|user|account)\b(?! or domain)|\brelay(?:ing)? (?:access )?denied\b|\b(?:SPF|DKIM|DMARC)\b|\bunauthenticated\b|\bcontent\b|\bvirus\b/i;

const enhancedSubject = (r: ReplyFacts): string | null =>
  r.enhanced === null ? null : r.enhanced.slice(r.enhanced.indexOf('.') + 1);

/** First match wins. */
export const SIGNAL_RULES: readonly SignalRule[] = [
  {
    id: 'closing-421',
    kind: 'throttle',
    when: (r) => r.code === 421,
    source:
      'RFC 5321 §4.2.3 (421: service not available, closing transmission channel); "421 4.7.0 Try again later, closing connection." (Gmail); "421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints" (Yahoo)',
  },
  {
    id: 'policy-4.7.x',
    kind: 'throttle',
    when: (r) =>
      r.code >= 400 && r.code < 500 && /^7\.\d+$/.test(enhancedSubject(r) ?? '') && !GREYLIST_WORDING.test(r.message),
    source:
      'RFC 3463 §3.8 (X.7.XXX security or policy status, transient); "451 4.7.650 The mail server [192.0.2.1] has been temporarily rate limited due to IP reputation." (Outlook.com)',
  },
  {
    id: 'pace-wording',
    kind: 'throttle',
    when: (r) => r.code >= 400 && r.code < 500 && PACE_WORDING.test(r.message),
    source:
      '"450 4.2.0 Too many concurrent SMTP connections from this IP address; please try again later" (constructed from Postfix anvil)',
  },
  {
    id: 'ip-block-5.7.x',
    kind: 'block',
    when: (r) =>
      r.code >= 500 &&
      r.code < 600 &&
      (r.enhanced === null || /^7\.\d+$|^0\.0$/.test(enhancedSubject(r) ?? '')) &&
      IP_BLOCK_WORDING.test(r.message) &&
      !NOT_IP_WORDING.test(r.message),
    source:
      '"550 5.7.1 Service unavailable; client host [192.0.2.1] blocked using zen.spamhaus.org" (Postfix with Spamhaus); "550 5.7.1 Unfortunately, messages from [192.0.2.1] weren\'t sent. Please contact your Internet service provider since part of their network is on our block list (S3150)." (Outlook.com); "550-5.7.1 ... due to the very low reputation of the sending IP address" (Gmail)',
  },
];

/** The provider-wide meaning of one reply, or null when it says nothing beyond its recipient. */
export function providerSignal(reply: ReplyFacts): ProviderSignal | null {
  const rule = SIGNAL_RULES.find((r) => r.when(reply));
  return rule === undefined ? null : { kind: rule.kind, rule: rule.id };
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };
const RETRY_IN =
  /\b(?:try|retry|resend|come back)(?:ing)?(?: (?:again|later|it))?(?: (?:in|after))? (\d{1,6}) ?(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)\b/i;
/** A reply's own wait is honoured up to a day; anything longer is a server's mistake, and the queue lifetime bounds it anyway. */
const MAX_RETRY_IN_MS = 86_400_000;

/** "try again in 5 seconds", "retry in 2 minutes", "try again after 1 hour": how long the reply asks us to wait, or null. */
export function retryAfterOf(message: string): number | null {
  const m = RETRY_IN.exec(message);
  if (m === null) return null;
  const unit = UNIT_MS[m[2]!.toLowerCase()[0]!]!;
  return Math.min(MAX_RETRY_IN_MS, Number(m[1]) * unit);
}

/**
 * The 421 a server gave instead of a session (at the greeting, EHLO or STARTTLS: RFC 5321 §3.8), as
 * quoted in a connection error, so a provider that throttles by refusing connections is heard too.
 */
export function sessionRefusal(error: string): SmtpReply | null {
  const m = /(?:^|=|: )(421[ -][^;]*)/.exec(error);
  return m === null ? null : parseSmtpReply(m[1]!.trim());
}
