import { COMPLAINT_FEEDBACK_TYPES, addressesIn, complaintRecipients, readFeedbackReport } from './arf.js';
import { classifyRecipient, findStatus, replyFrom } from './classify-recipient.js';
import { dsnRecipients } from './dsn.js';
import { bodyText, header, parseHeaders, parseMime, type MimeHeader, type MimePart } from '../mime/parse-mime.js';
import { beforeCopy, matchTextFormat } from './text-bounce-formats.js';
import type { ParsedReport, ReportRecipient } from './types.js';

export type { ParsedReport, ReportRecipient } from './types.js';

/** RFC 3464 §2.1 and RFC 6533 §6.1 (message/global-delivery-status, UTF-8 fields). */
const DELIVERY_STATUS_TYPES = new Set(['message/delivery-status', 'message/global-delivery-status']);
/** RFC 5965 §3 and RFC 6522 §3: the original comes as message/rfc822, text/rfc822-headers or the RFC 6532 global forms. */
const ORIGINAL_TYPES = new Set(['message/rfc822', 'message/global', 'text/rfc822-headers', 'message/global-headers']);

/** The report's own parts: everything but the inside of an attached message (a bounce of a bounce must not count twice). */
function ownParts(part: MimePart): MimePart[] {
  if (part.type === 'message/rfc822' || part.type === 'message/global') return [part];
  return [part, ...part.parts.flatMap(ownParts)];
}

/** Headers of the original message: the attached message's, or a headers-only part's. */
function originalHeaders(own: MimePart[]): MimeHeader[] | null {
  const part = own.find((p) => ORIGINAL_TYPES.has(p.type));
  if (!part) return null;
  return part.parts[0]?.headers ?? parseHeaders(bodyText(part).split(/\r?\n\r?\n/)[0] ?? '');
}

/** A Message-ID with its angle brackets; a bare `id@domain` (as in RFC 5965 Appendix B) gets them added. */
function normalizeMessageId(value: string | null): string | null {
  if (value === null) return null;
  const angled = /<[^<>\s]+>/.exec(value)?.[0];
  if (angled) return angled;
  const bare = /^[^<>\s@]+@[^<>\s@]+$/.exec(value.trim())?.[0];
  return bare ? `<${bare}>` : null;
}

/** A Message-ID header line in free text (the copy of the original inside a text bounce). */
function messageIdInText(text: string): string | null {
  const m = /^Message-Id:[ \t]*(?:\r?\n[ \t]+)?(<[^<>\s]+>)/im.exec(text);
  return m ? (m[1] as string) : null;
}

/** Text of the report's own text/plain parts; the root body when it has no content type at all. */
function ownText(own: MimePart[]): string {
  return own
    .filter((p) => p.type === 'text/plain' && p.parts.length === 0)
    .map(bodyText)
    .join('\n');
}

function textBounce(text: string): ReportRecipient[] | null {
  const format = matchTextFormat(beforeCopy(text)) ?? matchTextFormat(text);
  if (!format) return null;
  const seen = new Set<string>();
  return format.extract(text).flatMap(({ address, diagnostic }) => {
    if (seen.has(address.toLowerCase())) return [];
    seen.add(address.toLowerCase());
    const status = findStatus(diagnostic);
    // Text bounces carry no Status field: a permanent-failure format with no code at all is still
    // a permanent failure, so its wording is read as a 5yz reply (RFC 5321 §4.2.1).
    const reply =
      replyFrom(diagnostic, status) ??
      (format.action === 'failed' && diagnostic !== '' ? { code: 550, enhanced: null, message: diagnostic } : null);
    return [
      {
        address,
        action: format.action,
        status: status ?? reply?.enhanced ?? null,
        class: classifyRecipient(format.action, reply),
        diagnostic: diagnostic === '' ? null : diagnostic,
      },
    ];
  });
}

/**
 * Parses one inbound report, changing nothing: an RFC 3464 DSN, an RFC 5965 complaint, or a
 * non-standard text bounce (TEXT_BOUNCE_FORMATS); anything else is `unknown` with no recipients.
 * Never throws on malformed input.
 */
export async function parseReport(raw: Buffer): Promise<ParsedReport> {
  const root = parseMime(raw);
  const own = ownParts(root);
  const original = originalHeaders(own);
  const text = ownText(own);
  const copyText = text.slice(beforeCopy(text).length);
  const originalMessageId =
    normalizeMessageId(original ? header(original, 'message-id') : null) ?? messageIdInText(copyText);
  const returnPath = addressesIn(header(root.headers, 'to'))[0] ?? null;
  const copyReturnPath = original
    ? (addressesIn(header(original, 'return-path'))[0] ?? null)
    : (/^Return-Path:[ \t]*<([^<>\s]+@[^<>\s]+)>/im.exec(copyText)?.[1] ?? null);
  const base = { originalMessageId, returnPath, originalEnvelopeFrom: copyReturnPath };

  const feedback = own.find((p) => p.type === 'message/feedback-report');
  if (feedback) {
    const report = readFeedbackReport(bodyText(feedback));
    if (report.feedbackType === null || !COMPLAINT_FEEDBACK_TYPES.has(report.feedbackType)) {
      return { ...base, kind: 'unknown', recipients: [] };
    }
    const recipients = complaintRecipients(report, original ? header(original, 'to') : null);
    return {
      ...base,
      kind: 'complaint',
      recipients,
      originalEnvelopeFrom: report.originalMailFrom ?? copyReturnPath,
      feedback: { type: report.feedbackType, userAgent: report.userAgent },
    };
  }

  const statusParts = own.filter((p) => DELIVERY_STATUS_TYPES.has(p.type));
  const dsn = statusParts.flatMap((p) => dsnRecipients(bodyText(p)));
  if (dsn.length > 0) return { ...base, kind: 'dsn', recipients: dsn };

  const bounce = textBounce(text);
  if (bounce && bounce.length > 0) return { ...base, kind: 'bounce', recipients: bounce };
  return { ...base, kind: 'unknown', recipients: [] };
}
