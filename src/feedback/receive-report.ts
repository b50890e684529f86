import type { Deps } from '../deps.js';
import { returnPathSecret } from '../delivery/return-path.js';
import { processReport } from './process-report.js';
import type { ReportResult } from './apply-report.js';

/** One inbound report as it arrived: the raw message and its SMTP envelope. */
export interface InboundReport {
  raw: Buffer;
  /** MAIL FROM; `''` for the null sender DSNs use (RFC 3464, RFC 5321 §4.5.5). */
  mailFrom: string;
  rcptTo: readonly string[];
  remoteAddress: string;
}

/** A report that cannot be stored (RFC 5322 §2.1 has no NUL; a text column cannot hold one). */
export class ReportRefused extends Error {}

/**
 * Stores a report as `pending` and returns its id once committed: the inbound MX answers 250 only
 * after this (nothing accepted is lost). The raw bytes are kept as latin1 so every byte survives.
 */
export async function storeReport(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, report: InboundReport): Promise<string> {
  if (report.raw.includes(0)) throw new ReportRefused('report contains a NUL byte');
  const now = deps.clock.now();
  const id = deps.ids.next('rpt', now);
  await deps.db
    .insertInto('inbound_reports')
    .values({
      id,
      mail_from: report.mailFrom,
      rcpt_to: JSON.stringify(report.rcptTo),
      remote_address: report.remoteAddress,
      raw: report.raw.toString('latin1'),
      state: 'pending',
      result: null,
      received_at: now,
      processed_at: null,
    })
    .execute();
  return id;
}

/**
 * Receives one report in-process: stores it (committed), then parses, matches and applies it
 * (bounce → `failed`, complaint → `complained`, both deduplicated). The inbound MX uses the two
 * halves apart; anything else (the sandbox's complaint trigger) calls this. If processing fails
 * the report stays pending and the inbound role's pending pass takes it up again.
 */
export async function receiveReport(
  deps: Deps,
  report: InboundReport,
): Promise<{ reportId: string; result: ReportResult | null }> {
  const reportId = await storeReport(deps, report);
  const result = await processReport(deps, reportId, await returnPathSecret(deps));
  return { reportId, result };
}
