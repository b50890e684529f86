import type { Deps } from '../deps.js';
import { applyReport, type ReportResult } from './apply-report.js';
import { warnOnComplaintRate } from './complaint-rate.js';
import { matchReport } from './match-report.js';
import { parseReport } from './parse-report.js';

/** Reports taken per pending pass. */
const PENDING_BATCH = 100;

/** The stored RCPT TO list of a report (JSON text), or [] when it is not a list of strings. */
export function rcptList(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((a): a is string => typeof a === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Processes one stored report: parse (the same parser as `posthorn bounce parse`), match, apply
 * in one transaction; then, after a complaint, the complaint-rate warning. Returns the result, or
 * null when the report is unknown or was already processed.
 */
export async function processReport(deps: Deps, reportId: string, secret: Buffer): Promise<ReportResult | null> {
  const row = await deps.db
    .selectFrom('inbound_reports')
    .select(['id', 'raw', 'rcpt_to', 'state'])
    .where('id', '=', reportId)
    .executeTakeFirst();
  if (!row || row.state !== 'pending') return null;
  const parsed = await parseReport(Buffer.from(row.raw, 'latin1'));
  const match = await matchReport(
    { db: deps.db, secret, hostname: deps.config.hostname, bounceHost: deps.config.bounceHost },
    parsed,
    rcptList(row.rcpt_to),
  );
  const now = deps.clock.now();
  const result = await applyReport(deps.db, deps.ids, now, reportId, parsed, match);
  if (result === null) return null;
  deps.metrics.inboundReports.inc({ kind: result.kind, match: result.match });
  deps.log.info(
    {
      report: reportId,
      kind: result.kind,
      match: result.match,
      message: result.message_id,
      why: result.why,
      recipients: result.recipients.map((r) => ({ address: r.address, applied: r.applied, event: r.event })),
    },
    'inbound report processed',
  );
  if (match.kind === 'matched' && result.recipients.some((r) => r.event === 'complained' && r.applied === 'event')) {
    // After the commit, and never failing the report: the warning is advice, the complaint is recorded.
    await warnOnComplaintRate(deps.db, deps.ids, match.message.domainId, now).catch((err: unknown) =>
      deps.log.error({ err, domain: match.message.domainId }, 'complaint-rate check failed'),
    );
  }
  return result;
}

/**
 * The pending pass: processes reports stored but never processed (a crash between the 250 and
 * processing), oldest first, those received at least `minAgeMs` ago so a report being processed
 * right after its 250 is left to that. One failing report is logged and the others go on.
 * Returns how many were processed.
 */
export async function processPendingReports(
  deps: Deps,
  secret: Buffer,
  opts: { minAgeMs?: number } = {},
): Promise<number> {
  const before = deps.clock.now() - (opts.minAgeMs ?? 0);
  const rows = await deps.db
    .selectFrom('inbound_reports')
    .select('id')
    .where('state', '=', 'pending')
    .where('received_at', '<=', before)
    .orderBy('received_at')
    .orderBy('id')
    .limit(PENDING_BATCH)
    .execute();
  let processed = 0;
  for (const { id } of rows) {
    try {
      if (await processReport(deps, id, secret)) processed++;
    } catch (err) {
      deps.log.error({ err, report: id }, 'inbound report processing failed; it stays pending');
    }
  }
  return processed;
}
