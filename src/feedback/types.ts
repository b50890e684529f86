import type { BounceReason } from '../core/bounce-reason.js';
import type { ReportClass } from './classify-recipient.js';

/** One recipient named by a report (docs/inbound.md, `posthorn bounce parse`). */
export interface ReportRecipient {
  address: string;
  action: string | null;
  status: string | null;
  class: ReportClass;
  /** Why, in the shared taxonomy (core/bounce-reason.ts); null for complaints and non-failures. */
  reason: BounceReason | null;
  diagnostic: string | null;
}

/** What an inbound report says, before it is matched to any message. */
export interface ParsedReport {
  /**
   * `feedback`: a feedback report that is nobody's complaint (RFC 6591 `auth-failure` DMARC failure
   * reports, RFC 6430 `not-spam`): recognised, changes nothing.
   */
  kind: 'dsn' | 'bounce' | 'complaint' | 'feedback' | 'unknown';
  /** The format module that read it (feedback/formats, docs/bounces.md). */
  format?: string;
  recipients: ReportRecipient[];
  /** Message-ID of the message the report is about, angle brackets included, from its attached copy or headers. */
  originalMessageId: string | null;
  /** The original message's envelope sender as the report states it (ARF Original-Mail-From, the copy's Return-Path). */
  originalEnvelopeFrom?: string | null;
  /** Where the report was addressed (its To), normally one of our return paths (readReturnPath). */
  returnPath?: string | null;
  /** For a complaint: the ARF Feedback-Type and User-Agent (RFC 5965 §3.1). */
  feedback?: { type: string; userAgent: string | null };
}
