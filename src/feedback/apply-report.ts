import type { Kysely } from 'kysely';
import type { Ids } from '../core/ids.js';
import { newEvent } from '../events/event-record.js';
import { writeEvents, type NewEvent } from '../events/write-events.js';
import type { Database } from '../storage/database.js';
import type { ReportMatch, TokenScope } from './match-report.js';
import { reportOutcome, type ReportOutcome } from './report-outcome.js';
import type { ParsedReport } from './types.js';

/** What processing found and did, stored as inbound_reports.result. */
export interface ReportResult {
  kind: ParsedReport['kind'];
  match: ReportMatch['kind'];
  /** How it was matched: only ever the signed return path (null when it was not). */
  via: 'token' | null;
  /** `recipient`: the token named one recipient; `shared`: co-recipients saw it, so nothing was suppressed. */
  scope: 'recipient' | 'shared' | null;
  message_id: string | null;
  why: string | null;
  recipients: {
    address: string;
    recipient_id: string;
    action: string | null;
    status: string | null;
    class: string;
    /** `event`: written now; `duplicate`: this recipient already had this feedback; `none`: nothing to record. */
    applied: 'event' | 'duplicate' | 'none';
    event: 'failed' | 'complained' | null;
    event_id: string | null;
    suppressed: boolean;
    why: string;
  }[];
  /** Addresses the report names that are not recipients of the message. */
  unmatched: string[];
}

/**
 * A report matched through a shared token (a group or message return path, which every recipient of
 * that transaction saw) may have been written by one co-recipient about another: it still records
 * the event, but never suppresses, so nobody can get someone else taken off future mail.
 */
function limitShared(outcome: ReportOutcome, scope: TokenScope): ReportOutcome {
  const shared =
    ' — not suppressed: the return-path token was shared by the co-recipients of one transaction, so any of them could have sent this report';
  if (scope !== 'shared') return outcome;
  if (outcome.kind === 'failed' && outcome.suppress)
    return { ...outcome, suppress: false, why: `${outcome.why}${shared}` };
  if (outcome.kind === 'complained') return { ...outcome, suppress: false, why: `${outcome.why}${shared}` };
  return outcome;
}

/**
 * Applies a processed report in ONE transaction: claims the pending inbound_reports row (so two
 * processors never both apply it), inserts each outcome's dedupe key (`failed:<rcp>`,
 * `complained:<rcp>`) and writes the event only when the key is new, updates the recipients'
 * status, and stores the result. Returns null when the row was already processed by someone else.
 */
export async function applyReport(
  db: Kysely<Database>,
  ids: Ids,
  now: number,
  reportId: string,
  parsed: ParsedReport,
  match: ReportMatch,
): Promise<ReportResult | null> {
  const result: ReportResult = {
    kind: parsed.kind,
    match: match.kind,
    via: match.kind === 'matched' ? match.via : null,
    scope: match.kind === 'matched' ? match.scope : null,
    message_id: match.kind === 'matched' ? match.message.id : null,
    why: match.kind === 'matched' ? null : match.why,
    recipients: [],
    unmatched: match.kind === 'matched' ? match.unmatched : [],
  };
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('inbound_reports')
      .set({ state: 'processed', processed_at: now })
      .where('id', '=', reportId)
      .where('state', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    if (!claimed) return null;
    if (match.kind === 'matched') {
      const m = match.message;
      const events: NewEvent[] = [];
      for (const r of match.recipients) {
        const outcome = limitShared(reportOutcome(parsed.kind, r.report), match.scope);
        const line = {
          address: r.address,
          recipient_id: r.id,
          action: r.report.action,
          status: r.report.status,
          class: r.report.class,
          applied: 'none' as ReportResult['recipients'][number]['applied'],
          event: null as 'failed' | 'complained' | null,
          event_id: null as string | null,
          suppressed: false,
          why: outcome.why,
        };
        result.recipients.push(line);
        if (outcome.kind === 'none') continue;
        line.event = outcome.kind;
        // The dedupe key and the event commit together: a report received twice gives one event.
        const fresh = await trx
          .insertInto('feedback_keys')
          .values({ key: `${outcome.kind}:${r.id}`, created_at: now })
          .onConflict((oc) => oc.column('key').doNothing())
          .returning('key')
          .executeTakeFirst();
        if (!fresh) {
          line.applied = 'duplicate';
          continue;
        }
        const details: Record<string, unknown> =
          outcome.kind === 'complained'
            ? {
                feedback_type: parsed.feedback?.type ?? null,
                ...(parsed.feedback?.userAgent ? { user_agent: parsed.feedback.userAgent } : {}),
                report_id: reportId,
              }
            : {
                bounce_class: outcome.bounceClass,
                bounce_reason: r.report.reason,
                status: r.report.status,
                diagnostic: r.report.diagnostic,
                source: parsed.kind,
                report_id: reportId,
              };
        const event = newEvent(ids, m, {
          event: outcome.kind,
          recipient: r.address,
          at: now,
          details,
          ...(outcome.kind === 'failed' && outcome.suppress ? { suppress: 'hard_bounce' as const } : {}),
          ...(outcome.kind === 'complained' && !outcome.suppress ? { suppress: false as const } : {}),
        });
        events.push(event);
        Object.assign(line, { applied: 'event', event_id: event.id, suppressed: outcome.suppress });
        await trx
          .updateTable('recipients')
          .set({ status: outcome.kind, updated_at: now })
          .where('id', '=', r.id)
          .execute();
      }
      // The one event writer applies the suppression (complaint, or hard_bounce through `suppress`).
      await writeEvents(trx, events);
    }
    await trx
      .updateTable('inbound_reports')
      .set({ result: JSON.stringify(result) })
      .where('id', '=', reportId)
      .execute();
    return result;
  });
}
