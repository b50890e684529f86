import type { BounceReason } from '../../core/bounce-reason.js';
import type { MimeHeader, MimePart } from '../../mime/parse-mime.js';

/** What every format module sees of one report (feedback/parse-report.ts builds it once). */
export interface ReportContext {
  root: MimePart;
  /** The report's own parts (not the inside of the returned message). */
  own: MimePart[];
  /** Text of the report's own text/plain parts, decoded. */
  text: string;
  /** `text` up to the returned copy of the original: the reporting server's own words. */
  mtaText: string;
  subject: string;
  from: string;
  /** Headers of the returned original (attached, or quoted in the text), or null. */
  original: MimeHeader[] | null;
}

/** One recipient a format found, before classification. */
export interface FoundRecipient {
  address: string;
  /** RFC 3464 action: `failed`, or `delayed` for a warning; null when the report does not say. */
  action: string | null;
  status: string | null;
  diagnostic: string;
  /** A reason the format knows for certain (a provider's own bounce type), else read from the diagnostic. */
  reason?: BounceReason;
  /** Set for a complaint (an abuse or feedback-loop report): its feedback type (RFC 5965 §7.3). */
  feedbackType?: string;
}

/**
 * A bounce format: one server family's way of writing a report (docs/bounces.md, Formats). `detect`
 * is cheap and specific; `extract` may return nothing, and the next format is tried.
 */
export interface BounceFormat {
  id: string;
  /** The server family or provider. */
  family: string;
  detect: (ctx: ReportContext) => boolean;
  extract: (ctx: ReportContext) => FoundRecipient[];
  /** Where the wording comes from. */
  source: string;
}
