import https from 'node:https';
import pino from 'pino';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import { checkedLookup } from '../../webhooks/post-webhook.js';
import { resolveRoute } from '../resolve-route.js';
import { resolverLookup } from '../smtp/resolver-lookup.js';
import { createSmtpTransport } from '../smtp-transport.js';
import type { Transport } from '../transport.js';
import { buildTlsReport, gzipReport, parseTlsRptRecord, tlsReportMail } from './tls-report.js';
import { utcDay } from './tls-report-store.js';
import { trustedCas } from './trust-store.js';

type ReportDeps = Pick<Deps, 'db' | 'clock' | 'resolver' | 'config' | 'log'>;

/** A report that could not be sent is tried again after this long… */
const RETRY_AFTER_MS = 60 * 60_000;
/** …this many times in all (RFC 8460 §5.4 lets a submitter give up on an unreachable rua). */
const MAX_ATTEMPTS = 5;
/** Counts are kept this many days, then purged: a report is due the day after. */
const KEEP_DAYS = 30;
const HTTPS_TIMEOUT_MS = 30_000;

/**
 * Sends the aggregate TLS reports (RFC 8460) of every finished UTC day not yet reported: for each
 * recipient domain with counts that day, its `_smtp._tls` record is looked up and the report goes
 * to each `rua` (mail through the SMTP transport, or an HTTPS POST). A node claims a (domain, day)
 * by inserting its row in `tls_reports` first, so on PostgreSQL no two nodes send the same report.
 * Returns how many reports were sent.
 */
export async function sendDueTlsReports(deps: ReportDeps, opts: { transport?: Transport } = {}): Promise<number> {
  const now = deps.clock.now();
  const today = utcDay(now);
  await deps.db
    .deleteFrom('tls_report_counts')
    .where('day', '<', utcDay(now - KEEP_DAYS * 86_400_000))
    .execute();
  const due = await deps.db
    .selectFrom('tls_report_counts as c')
    .select(['c.domain', 'c.day'])
    .distinct()
    .where('c.day', '<', today)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('tls_reports as r')
            .select('r.domain')
            .whereRef('r.domain', '=', 'c.domain')
            .whereRef('r.day', '=', 'c.day')
            .where((eb) =>
              eb.or([
                eb('r.sent_at', 'is not', null),
                eb('r.attempts', '>=', MAX_ATTEMPTS),
                eb('r.claimed_at', '>', now - RETRY_AFTER_MS),
              ]),
            ),
        ),
      ),
    )
    .orderBy('c.day')
    .limit(100)
    .execute();
  let transport = opts.transport;
  let sent = 0;
  try {
    for (const { domain, day } of due) {
      if (!(await claim(deps, domain, day, now))) continue;
      const result = await sendOne(deps, domain, day, () => {
        transport ??= createSmtpTransport({
          heloName: deps.config.hostname,
          maxConnectionsPerHost: 1,
          lookup: resolverLookup(deps.resolver),
          log: pino({ level: 'silent' }),
        });
        return transport;
      });
      await deps.db
        .updateTable('tls_reports')
        .set(result.ok ? { sent_at: deps.clock.now(), last_error: result.note } : { last_error: result.error })
        .where('domain', '=', domain)
        .where('day', '=', day)
        .execute();
      if (result.ok && result.note === null) sent++;
      if (!result.ok) deps.log.info({ domain, day, err: result.error }, 'TLS report not sent');
    }
  } finally {
    if (transport !== undefined && opts.transport === undefined) await transport.close();
  }
  return sent;
}

/** Takes (domain, day) for this node: a new row, or a failed one whose retry time has come. */
async function claim(deps: ReportDeps, domain: string, day: string, now: number): Promise<boolean> {
  const reportId = `${day}.${domain}@${deps.config.hostname}`;
  const inserted = await deps.db
    .insertInto('tls_reports')
    .values({ domain, day, report_id: reportId, claimed_at: now, sent_at: null, attempts: 1, last_error: null })
    .onConflict((oc) => oc.columns(['domain', 'day']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  const retried = await deps.db
    .updateTable('tls_reports')
    .set({ claimed_at: now, attempts: sql<number>`attempts + 1` })
    .where('domain', '=', domain)
    .where('day', '=', day)
    .where('sent_at', 'is', null)
    .where('attempts', '<', MAX_ATTEMPTS)
    .where('claimed_at', '<=', now - RETRY_AFTER_MS)
    .executeTakeFirst();
  return Number(retried.numUpdatedRows) > 0;
}

type SendResult = { ok: true; note: string | null } | { ok: false; error: string };

async function sendOne(deps: ReportDeps, domain: string, day: string, transport: () => Transport): Promise<SendResult> {
  let rua: string[] | null;
  try {
    rua = parseTlsRptRecord(await deps.resolver.resolveTxt(`_smtp._tls.${domain}`));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') rua = null;
    else return { ok: false, error: `TLSRPT record lookup failed: ${(err as Error).message}` };
  }
  // Nothing to send to: the day is done with, and not looked up again every minute.
  if (rua === null) return { ok: true, note: 'the domain publishes no TLSRPT record' };
  const rows = await deps.db
    .selectFrom('tls_report_counts')
    .selectAll()
    .where('domain', '=', domain)
    .where('day', '=', day)
    .orderBy('key')
    .execute();
  const row = await deps.db
    .selectFrom('tls_reports')
    .select('report_id')
    .where('domain', '=', domain)
    .where('day', '=', day)
    .executeTakeFirstOrThrow();
  const submitter = deps.config.hostname;
  const report = buildTlsReport(domain, day, rows, {
    organization: submitter,
    contact: `postmaster@${submitter}`,
    reportId: row.report_id,
  });
  const errors: string[] = [];
  for (const uri of rua) {
    try {
      if (uri.toLowerCase().startsWith('mailto:')) {
        const to = decodeURIComponent(uri.slice('mailto:'.length));
        const raw = tlsReportMail({
          report,
          domain,
          submitter,
          from: `TLS reports <tlsrpt-noreply@${submitter}>`,
          to,
          date: new Date(deps.clock.now()),
        });
        await mailReport(deps, transport(), to, raw);
      } else await postReport(deps, uri, gzipReport(report));
    } catch (err) {
      errors.push(`${uri}: ${(err as Error).message}`);
    }
  }
  // Sent once any rua took it: RFC 8460 §5.4 does not ask for every one.
  if (errors.length < rua.length) return { ok: true, note: errors.length > 0 ? errors.join('; ') : null };
  return { ok: false, error: errors.join('; ') };
}

/** Mails the report to `to`'s MX hosts, as any delivery finds them (resolve-route.ts). */
async function mailReport(deps: ReportDeps, transport: Transport, to: string, raw: Buffer): Promise<void> {
  const route = await resolveRoute(deps.resolver, to.slice(to.lastIndexOf('@') + 1), {
    mxPort: deps.config.mxPort,
    relayHost: deps.config.relayHost,
  });
  if (route.kind !== 'deliver') throw new Error(route.reason);
  const result = await transport.send({
    destinations: route.destinations,
    envelopeFrom: `tlsrpt-noreply@${deps.config.hostname}`,
    recipients: [to],
    raw,
    attempt: 1,
  });
  if (result.kind === 'unreachable') throw new Error(result.error);
  const reply = result.recipients[0]?.reply;
  if (reply === undefined || reply.code >= 300) throw new Error(`refused: ${reply?.raw ?? 'no reply'}`);
}

/** POSTs the gzipped report (RFC 8460 §5.2), through the same address guard as webhooks. */
function postReport(deps: ReportDeps, uri: string, body: Buffer): Promise<void> {
  const url = new URL(uri);
  const ca = trustedCas(deps.config.tlsCaFile);
  const lookup = checkedLookup(deps.config.webhookAllowPrivate, resolverLookup(deps.resolver));
  return new Promise((resolve, reject) => {
    const req = https.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/tlsrpt+gzip', 'content-length': body.length },
      agent: false,
      timeout: HTTPS_TIMEOUT_MS,
      ...(ca ? { ca } : {}),
      ...(lookup ? { lookup } : {}),
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${HTTPS_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) resolve();
      else reject(new Error(`HTTP ${status}`));
    });
    req.end(body);
  });
}
