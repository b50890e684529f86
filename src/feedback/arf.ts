import { addressOf, field, parseFieldGroups } from './dsn-fields.js';
import type { ReportRecipient } from './types.js';

/**
 * Feedback-Type values that are a recipient's complaint (RFC 5965 §7.3 registry: abuse, fraud,
 * other, virus). `not-spam` (RFC 6430) and `auth-failure` (RFC 6591) are feedback reports too, but
 * nobody complained: they must not suppress anyone.
 */
export const COMPLAINT_FEEDBACK_TYPES: ReadonlySet<string> = new Set([
  'abuse',
  'fraud',
  'other',
  'virus',
  'opt-out',
  'opt-in-out',
]);

/** The fields of a message/feedback-report part that matter here (RFC 5965 §3.1, §3.2). */
export interface FeedbackReport {
  feedbackType: string | null;
  originalRcptTo: string[];
  originalMailFrom: string | null;
  /** The provider's reporting software (RFC 5965 §3.1 User-Agent), kept in the `complained` event's details. */
  userAgent: string | null;
}

/** Reads a message/feedback-report body; every field may be missing. */
export function readFeedbackReport(body: string): FeedbackReport {
  const group = parseFieldGroups(body).reduce<Map<string, string[]>>((all, g) => {
    for (const [name, values] of g) all.set(name, [...(all.get(name) ?? []), ...values]);
    return all;
  }, new Map());
  const originalRcptTo = (group.get('original-rcpt-to') ?? [])
    .map((v) => addressOf(v))
    .filter((a): a is string => a !== null);
  return {
    feedbackType: field(group, 'feedback-type')?.toLowerCase() ?? null,
    originalRcptTo,
    originalMailFrom: addressOf(field(group, 'original-mail-from')),
    userAgent: field(group, 'user-agent')?.trim() || null,
  };
}

/** Addresses in a To header value: the parts inside angle brackets, else bare addr-specs. */
export function addressesIn(value: string | null): string[] {
  if (value === null) return [];
  const angled = [...value.matchAll(/<([^<>@\s]+@[^<>\s]+)>/g)].map((m) => m[1] as string);
  if (angled.length > 0) return angled;
  // Runs between separators that hold an `@` with something on both sides. Not the regex
  // /[^\s,;:<>"()]+@[^\s,;:<>"()]+/g, which finds the same runs but backtracks over each one from
  // every start position: quadratic, seconds of blocked event loop for one long header line.
  return [...value.matchAll(/[^\s,;:<>"()]+/g)]
    .map((m) => m[0])
    .filter((run) => {
      const at = run.indexOf('@', 1);
      return at !== -1 && at < run.length - 1;
    });
}

/**
 * The complaining recipients: Original-Rcpt-To (RFC 5965 §3.2) when given, else the To of the
 * reported message (RFC 5965 §2 item d: the original message or its headers are attached).
 */
export function complaintRecipients(report: FeedbackReport, originalTo: string | null): ReportRecipient[] {
  const addresses = report.originalRcptTo.length > 0 ? report.originalRcptTo : addressesIn(originalTo);
  return [...new Set(addresses)].map((address) => ({
    address,
    action: null,
    status: null,
    class: 'complaint' as const,
    reason: null,
    diagnostic: report.feedbackType === null ? null : `feedback-type: ${report.feedbackType}`,
  }));
}
