import { COMPLAINT_FEEDBACK_TYPES, addressesIn, complaintRecipients, readFeedbackReport } from './arf.js';
import { classifyFound, findStatus, inferAction, replyFrom } from './classify-recipient.js';
import { bodyText, header, parseHeaders, parseMime, type MimeHeader, type MimePart } from '../mime/parse-mime.js';
import { BOUNCE_FORMATS, type ReportContext } from './formats/index.js';
import { isAutoReply } from './formats/auto-reply.js';
import { beforeCopy } from './text-bounce-formats.js';
import type { ParsedReport, ReportRecipient } from './types.js';

export type { ParsedReport, ReportRecipient } from './types.js';

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

/** A report forwarded as a quoted reply (every line behind `>`) read as the report itself. */
function unquoted(text: string): string {
  const lines = text.split(/\r?\n/);
  const quoted = lines.filter((l) => l.startsWith('>')).length;
  return quoted > 5 && quoted * 2 > lines.length ? lines.map((l) => l.replace(/^>+ ?/, '')).join('\n') : text;
}

/** An RFC 2047 encoded-word header value as text (Subject and From of localised reports). */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?\s]+)\?([bq])\?([^?\s]*)\?=\s*/gi, (all, charset: string, enc: string, data: string) => {
    try {
      const bytes =
        enc.toLowerCase() === 'b'
          ? Buffer.from(data, 'base64')
          : Buffer.from(
              data
                .replace(/_/g, ' ')
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
              'latin1',
            );
      return new TextDecoder(charset.replace(/\*.*$/, '')).decode(bytes);
    } catch {
      return all;
    }
  });
}

/** Headers quoted in the text after the copy marker, when the original is not attached as a part. */
function quotedHeaders(copyText: string): MimeHeader[] | null {
  const head = copyText.replace(
    /^[\s\S]*?\n(?=(?:Return-Path|Received|From|To|Subject|Message-Id|Date|MIME-Version):)/i,
    '',
  );
  const fields = parseHeaders(head.split(/\r?\n\r?\n/)[0] ?? '');
  return fields.some((f) => f.name === 'to' || f.name === 'from') ? fields : null;
}

/** A time budget for one report: format modules past it are not tried (docs/bounces.md, Limits). */
const BUDGET_MS = 2000;

/**
 * Parses one inbound report, changing nothing: an RFC 3464 DSN, an RFC 5965 complaint, or a
 * non-standard text bounce (TEXT_BOUNCE_FORMATS); anything else is `unknown` with no recipients.
 * Never throws on malformed input.
 */
export async function parseReport(raw: Buffer): Promise<ParsedReport> {
  try {
    return readReport(raw);
  } catch {
    // A report no module can read safely is unknown, never an error for the caller.
    return { kind: 'unknown', recipients: [], originalMessageId: null };
  }
}

function readReport(raw: Buffer): ParsedReport {
  const started = performance.now();
  const root = parseMime(raw);
  const own = ownParts(root);
  const text = unquoted(ownText(own));
  const mtaText = beforeCopy(text);
  const copyText = text.slice(mtaText.length);
  const original = originalHeaders(own) ?? quotedHeaders(copyText);
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
    const type = report.feedbackType ?? 'abuse';
    if (!COMPLAINT_FEEDBACK_TYPES.has(type)) {
      // RFC 6591 auth-failure and RFC 6430 not-spam: recognised, nobody complained.
      return {
        ...base,
        kind: 'feedback',
        format: 'arf',
        recipients: [],
        feedback: { type, userAgent: report.userAgent },
      };
    }
    const recipients = complaintRecipients(report, original ? header(original, 'to') : null);
    return {
      ...base,
      kind: 'complaint',
      format: 'arf',
      recipients,
      originalEnvelopeFrom: report.originalMailFrom ?? copyReturnPath,
      feedback: { type, userAgent: report.userAgent },
    };
  }

  const subject = decodeWords(header(root.headers, 'subject') ?? '');
  const from = decodeWords(header(root.headers, 'from') ?? '');
  if (!own.some((p) => p.type === 'message/delivery-status') && isAutoReply(root.headers, subject, mtaText))
    return { ...base, kind: 'unknown', recipients: [] };
  const ctx: ReportContext = { root, own, text, mtaText, subject, from, original };
  for (const format of BOUNCE_FORMATS) {
    if (performance.now() - started > BUDGET_MS) break;
    if (!format.detect(ctx)) continue;
    const found = format.extract(ctx);
    if (found.length === 0) continue;
    const complaints = found.filter((f) => f.feedbackType !== undefined);
    if (complaints.length > 0) {
      const type = complaints[0]?.feedbackType ?? 'abuse';
      return {
        ...base,
        kind: 'complaint',
        format: format.id,
        recipients: complaints.map((f) => ({
          address: f.address,
          action: null,
          status: null,
          class: 'complaint',
          reason: null,
          diagnostic: `feedback-type: ${type}`,
        })),
        feedback: { type, userAgent: null },
      };
    }
    const seen = new Set<string>();
    const recipients = found.flatMap((f): ReportRecipient[] => {
      const key = f.address.toLowerCase();
      if (seen.has(key)) return [];
      seen.add(key);
      const action = f.action ?? inferAction(null, f.status) ?? 'failed';
      // A DSN's Status field is the status; text formats have none but often quote one.
      const status = format.id === 'rfc3464' ? f.status : (f.status ?? findStatus(f.diagnostic));
      const c = classifyFound(action, status, f.diagnostic, f.reason);
      return [
        {
          address: f.address,
          action,
          status: format.id === 'rfc3464' ? status : (status ?? replyFrom(f.diagnostic, null)?.enhanced ?? null),
          class: c.class,
          reason: c.reason,
          diagnostic: f.diagnostic === '' ? null : f.diagnostic.replace(/\s*\n\s*/g, ' '),
        },
      ];
    });
    return { ...base, kind: format.id === 'rfc3464' ? 'dsn' : 'bounce', format: format.id, recipients };
  }
  return { ...base, kind: 'unknown', recipients: [] };
}
