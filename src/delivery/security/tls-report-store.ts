import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/database.js';
import type { ReportPolicy } from './tls-outcome.js';

/** One session outcome (or policy problem) to count for a recipient domain's daily TLS report. */
export interface TlsResult {
  report: ReportPolicy;
  /** The receiving MX host; empty for a result about the policy itself. */
  mxHost: string;
  /** `success`, or an RFC 8460 §4.3 result type. */
  resultType: string;
  failureReason?: string;
}

/** The UTC day of an instant, `YYYY-MM-DD`: reports cover whole UTC days (RFC 8460 §4.1). */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * Adds one to each result's count for `domain` on the day of `now` (RFC 8460 §4: counts per policy,
 * per receiving host and result type). An upsert, so concurrent workers and nodes add up.
 */
export async function recordTlsResults(
  db: Kysely<Database>,
  domain: string,
  now: number,
  results: readonly TlsResult[],
): Promise<void> {
  const day = utcDay(now);
  for (const r of results) {
    const row = {
      domain: domain.toLowerCase(),
      day,
      policy_type: r.report.policyType,
      policy_string: JSON.stringify(r.report.policyString),
      policy_mx: JSON.stringify(r.report.policyMx),
      mx_host: r.mxHost,
      result_type: r.resultType,
      failure_reason: r.failureReason ?? '',
    };
    const key = createHash('sha256')
      .update(
        JSON.stringify([
          row.policy_type,
          row.policy_string,
          row.policy_mx,
          row.mx_host,
          row.result_type,
          row.failure_reason,
        ]),
      )
      .digest('base64url');
    await db
      .insertInto('tls_report_counts')
      .values({ ...row, key, count: 1 })
      .onConflict((oc) =>
        oc.columns(['domain', 'day', 'key']).doUpdateSet({ count: sql<number>`tls_report_counts.count + 1` }),
      )
      .execute();
  }
}
