import type { ReportClass } from './classify-recipient.js';

/** One recipient named by a report (docs/inbound.md, `posthorn bounce parse`). */
export interface ReportRecipient {
  address: string;
  action: string | null;
  status: string | null;
  class: ReportClass;
  diagnostic: string | null;
}

/** What an inbound report says, before it is matched to any message. */
export interface ParsedReport {
  kind: 'dsn' | 'bounce' | 'complaint' | 'unknown';
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
