import { parseSmtpReply, type SmtpReply } from '../core/smtp-reply.js';
import { REASON_INFO, type BounceReason } from '../core/bounce-reason.js';
import { classifyReply, reasonFromWording, type ReplyFacts } from '../delivery/classify-reply.js';

/** Bounce classes a report can give a recipient (docs/inbound.md, `posthorn bounce parse`). */
export type ReportClass = 'hard' | 'soft' | 'block' | 'complaint' | 'unknown';

/** RFC 3463 §2: class.subject.detail. */
const STATUS = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;

/** A status code `X.Y.Z` from text, or null. */
export function findStatus(text: string | null): string | null {
  if (text === null) return null;
  const m = STATUS.exec(text);
  return m ? m[0] : null;
}

/**
 * The SMTP reply a diagnostic carries (RFC 3464 §2.3.6): read by core/smtp-reply.ts from its basic
 * code on when it has one (a 3-digit code at the start of a line or after white space, such as
 * `host mx.example.org said: 550-5.1.1 …`), else a reply built from the status code (550 for
 * 5.x.x, 450 for 4.x.x, RFC 5321 §4.2.1) carrying the diagnostic text. Null when neither gives a code.
 */
export function replyFrom(diagnostic: string | null, status: string | null): SmtpReply | null {
  const text = diagnostic ?? '';
  const basic = /(?<=^|\s)[245]\d\d(?=[ -]|:\s|$)/m.exec(text);
  if (basic) {
    const reply = parseSmtpReply(text.slice(basic.index));
    // The reply's own enhanced code wins; the report's status fills in when the reply has none.
    const fallback = status ?? findStatus(reply.message);
    const sameClass = fallback !== null && fallback[0] === String(reply.code)[0];
    return reply.enhanced === null && sameClass ? { ...reply, enhanced: fallback } : reply;
  }
  const code = status ?? findStatus(text);
  if (code === null || code[0] === '2') return null;
  const message = text.replace(/\s+/g, ' ').trim();
  return { code: code[0] === '5' ? 550 : 450, enhanced: code, message, raw: text };
}

/** RFC 3464 §2.3.3: these actions report success, not a failure. */
const NOT_FAILURES = new Set(['delivered', 'relayed', 'expanded']);

/**
 * The class of one recipient of a report, through the same REPLY_RULES table as live SMTP replies.
 * `delayed` is always soft (RFC 3464 §2.3.3: the MTA is still trying; a delay never suppresses);
 * success actions and reports without a usable code are `unknown`.
 */
export function classifyRecipient(action: string | null, reply: ReplyFacts | null): ReportClass {
  if (action !== null && NOT_FAILURES.has(action)) return 'unknown';
  if (action === 'delayed') return 'soft';
  if (reply === null) return 'unknown';
  return classifyReply(reply).bounceClass ?? 'unknown';
}

/** RFC 3464 §2.3.3 leaves Action required; when a sender leaves it out, the status class says it. */
export function inferAction(action: string | null, status: string | null): string | null {
  if (action !== null)
    return action
      .toLowerCase()
      .replace(/\s*\(.*$/, '')
      .trim();
  if (status === null) return null;
  return ({ '2': 'delivered', '4': 'delayed', '5': 'failed' } as Record<string, string>)[status[0] as string] ?? null;
}

/** A failure refused at MAIL FROM is about our envelope sender, whatever the reply says of it. */
const AT_MAIL_FROM = /\b(?:after|in reply to) MAIL FROM\b/i;

/**
 * The class and reason of one recipient a format found (feedback/formats), through the same rule
 * table as live replies (delivery/classify-reply.ts). A failure with no code at all is read as a
 * 5yz reply with the diagnostic's wording when the report says the delivery failed (RFC 5321
 * §4.2.1), and as 4yz when it only reports a delay. A format that knows the reason gives it.
 */
export function classifyFound(
  action: string | null,
  status: string | null,
  diagnostic: string,
  known?: BounceReason,
): { class: ReportClass; reason: BounceReason | null } {
  if (action !== null && NOT_FAILURES.has(action)) return { class: 'unknown', reason: null };
  if (known) {
    const info = REASON_INFO[known];
    return {
      class:
        action === 'delayed' || status?.[0] === '4'
          ? info.bounceClass === 'block'
            ? 'block'
            : 'soft'
          : info.bounceClass,
      reason: known,
    };
  }
  const text = diagnostic;
  const reply =
    replyFrom(text, status) ??
    (text !== ''
      ? { code: action === 'delayed' ? 450 : 550, enhanced: null, message: text.replace(/\s+/g, ' ').trim() }
      : null);
  if (AT_MAIL_FROM.test(text) && !/\b(?:RCPT TO|end of data|DATA)\b/i.test(text.replace(AT_MAIL_FROM, '')))
    return { class: 'soft', reason: 'sender_rejected' };
  if (reply === null)
    return { class: action === 'delayed' ? 'soft' : 'soft', reason: action === 'delayed' ? 'expired' : 'undefined' };
  // A reply whose own text says little: the whole diagnostic's wording decides.
  const c = classifyReply(reply);
  let reason = c.reason;
  let cls: ReportClass = c.bounceClass ?? 'unknown';
  if (action === 'delayed') cls = cls === 'block' ? 'block' : 'soft';
  if ((reason === 'undefined' || reason === null) && text !== reply.message) {
    const wider = reasonFromWording({ ...reply, message: text.replace(/\s+/g, ' ') });
    reason = wider;
    if (reply.code >= 500 && action !== 'delayed') cls = REASON_INFO[wider].bounceClass;
  }
  if (reply.code >= 200 && reply.code < 300)
    return { class: action === 'failed' ? 'soft' : 'unknown', reason: action === 'failed' ? 'undefined' : null };
  return { class: cls, reason };
}
