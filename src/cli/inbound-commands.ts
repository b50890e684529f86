import { CommandError } from './command-error.js';
import type { ReportResult } from '../feedback/apply-report.js';
import { iso, withDeps, type Command } from './command.js';
import { rcptList } from '../feedback/process-report.js';
import { printable } from './printable.js';

const LIST_LIMIT = 100;

/** The stored result, or null while the report is pending (or its result cannot be read). */
function resultOf(json: string | null): ReportResult | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as ReportResult;
  } catch {
    return null;
  }
}

/** One line of what a report did: the events it recorded, or why it changed nothing. */
function outcomeText(state: string, r: ReportResult | null): string {
  if (state === 'pending' || r === null) return 'pending: not processed yet';
  if (r.match !== 'matched') return `${r.match}, changed nothing: ${r.why ?? ''}`;
  const done = r.recipients
    .filter((x) => x.applied === 'event')
    .map((x) => `${x.event} ${x.address}${x.suppressed ? ' (suppressed)' : ''}`);
  return `matched ${r.message_id ?? ''} by ${r.scope ?? 'recipient'} token: ${done.length > 0 ? done.join(', ') : 'no new event'}`;
}

/**
 * `inbound list [--unmatched]`: the newest reports the inbound MX stored, with what each did. A
 * report without a valid return-path token changes nothing and is only visible here (docs/inbound.md).
 */
export const inboundList: Command = {
  words: 'inbound list',
  args: [],
  options: ['unmatched'],
  run: ({ config, options }) =>
    withDeps(config, async (deps) => {
      let q = deps.db
        .selectFrom('inbound_reports')
        .select(['id', 'mail_from', 'rcpt_to', 'remote_address', 'state', 'result', 'received_at'])
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .limit(LIST_LIMIT);
      // The result is written by JSON.stringify (apply-report.ts), so `"match":"matched"` is its exact spelling.
      if (options.unmatched) q = q.where('state', '=', 'processed').where('result', 'not like', '%"match":"matched"%');
      const rows = await q.execute();
      const reports = rows.map((row) => {
        const r = resultOf(row.result);
        return {
          id: row.id,
          received_at: iso(row.received_at),
          state: row.state,
          kind: r?.kind ?? null,
          match: r?.match ?? null,
          scope: r?.scope ?? null,
          message_id: r?.message_id ?? null,
          why: r?.why ?? null,
          remote_address: row.remote_address,
          mail_from: row.mail_from,
          rcpt_to: rcptList(row.rcpt_to),
          outcome: outcomeText(row.state, r),
        };
      });
      const text =
        reports.length === 0
          ? `no ${options.unmatched ? 'unmatched ' : ''}inbound reports`
          : reports
              .map((r) => `${r.id}  ${r.received_at}  ${r.remote_address}  ${r.kind ?? '-'}  ${r.outcome}`)
              .join('\n');
      return { json: { reports }, text: printable(text) };
    }),
};

/** `inbound show ID`: one stored report, what processing found and did, and its raw source. */
export const inboundShow: Command = {
  words: 'inbound show',
  args: ['ID'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const id = args[0] as string;
      const row = await deps.db.selectFrom('inbound_reports').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw new CommandError(`no inbound report ${id}; see posthorn inbound list`);
      const result = resultOf(row.result);
      // Kept as latin1 (byte for byte); shown as UTF-8, the charset nearly all mail is in.
      const raw = Buffer.from(row.raw, 'latin1').toString('utf8');
      const report = {
        id: row.id,
        received_at: iso(row.received_at),
        processed_at: iso(row.processed_at),
        state: row.state,
        remote_address: row.remote_address,
        mail_from: row.mail_from,
        rcpt_to: rcptList(row.rcpt_to),
        result,
        raw,
      };
      const lines = [
        `${row.id}  received ${report.received_at} from ${row.remote_address}`,
        `  envelope: MAIL FROM:<${row.mail_from}> RCPT TO:${report.rcpt_to.map((a) => `<${a}>`).join(', ')}`,
        `  ${result?.kind ?? 'kind unknown yet'}: ${outcomeText(row.state, result)}`,
        ...(result?.recipients ?? []).map(
          (x) =>
            `  ${x.address}: ${x.applied === 'event' ? `${x.event}${x.suppressed ? ', suppressed' : ''}` : x.applied}; ${x.why}`,
        ),
        ...(result && result.unmatched.length > 0
          ? [`  named but not recipients: ${result.unmatched.join(', ')}`]
          : []),
        '',
        raw,
      ];
      return { json: report, text: printable(lines.join('\n')) };
    }),
};
