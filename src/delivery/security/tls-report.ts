import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import type { TlsReportCountTable } from '../../storage/database.js';

/**
 * TLS-RPT (RFC 8460) as data: the `_smtp._tls` TXT record, the aggregate report JSON (§4) and the
 * mail that carries it (§5.3). Pure functions; sending is in send-tls-reports.ts.
 */

/**
 * The report addresses (`rua`) of a domain's `_smtp._tls` TXT answer (RFC 8460 §3): `mailto:` and
 * `https:` URIs, in order. Records not starting with `v=TLSRPTv1` are ignored, and anything but
 * exactly one remaining record means no reporting (§3: "MUST NOT" pick one). Throws naming the
 * fault for a record without a usable `rua`.
 */
export function parseTlsRptRecord(txt: string[][]): string[] | null {
  const records = txt.map((chunks) => chunks.join('')).filter((r) => /^v=TLSRPTv1\s*(;|$)/.test(r));
  if (records.length !== 1) return null;
  const rua = records[0]!
    .split(';')
    .map((f) => f.trim())
    .find((f) => /^rua\s*=/.test(f));
  if (rua === undefined) throw new Error('the _smtp._tls TXT record has no rua');
  const uris = rua
    .slice(rua.indexOf('=') + 1)
    .split(',')
    .map((u) => u.trim())
    .filter((u) => /^mailto:[^@\s]+@[^@\s]+$/i.test(u) || /^https:\/\/\S+$/i.test(u));
  if (uris.length === 0) throw new Error(`the _smtp._tls TXT record's rua "${rua}" has no mailto: or https: URI`);
  return uris;
}

/** The JSON report of RFC 8460 §4.4. */
export interface TlsReport {
  'organization-name': string;
  'date-range': { 'start-datetime': string; 'end-datetime': string };
  'contact-info': string;
  'report-id': string;
  policies: {
    policy: { 'policy-type': string; 'policy-string': string[]; 'policy-domain': string; 'mx-host'?: string[] };
    summary: { 'total-successful-session-count': number; 'total-failure-session-count': number };
    'failure-details': {
      'result-type': string;
      'receiving-mx-hostname'?: string;
      'failed-session-count': number;
      'failure-reason-code'?: string;
    }[];
  }[];
}

/** The report for one domain and UTC day from its counts (tls_report_counts rows), one entry per policy. */
export function buildTlsReport(
  domain: string,
  day: string,
  rows: readonly Pick<
    TlsReportCountTable,
    'policy_type' | 'policy_string' | 'policy_mx' | 'mx_host' | 'result_type' | 'failure_reason' | 'count'
  >[],
  submitter: { organization: string; contact: string; reportId: string },
): TlsReport {
  const byPolicy = new Map<string, TlsReport['policies'][number]>();
  for (const row of rows) {
    const key = `${row.policy_type}\0${row.policy_string}\0${row.policy_mx}`;
    let entry = byPolicy.get(key);
    if (entry === undefined) {
      const mx = JSON.parse(row.policy_mx) as string[];
      entry = {
        policy: {
          'policy-type': row.policy_type,
          'policy-string': JSON.parse(row.policy_string) as string[],
          'policy-domain': domain,
          ...(mx.length > 0 ? { 'mx-host': mx } : {}),
        },
        summary: { 'total-successful-session-count': 0, 'total-failure-session-count': 0 },
        'failure-details': [],
      };
      byPolicy.set(key, entry);
    }
    const count = Number(row.count);
    if (row.result_type === 'success') {
      entry.summary['total-successful-session-count'] += count;
      continue;
    }
    entry.summary['total-failure-session-count'] += count;
    entry['failure-details'].push({
      'result-type': row.result_type,
      ...(row.mx_host !== '' ? { 'receiving-mx-hostname': row.mx_host } : {}),
      'failed-session-count': count,
      ...(row.failure_reason !== '' ? { 'failure-reason-code': row.failure_reason } : {}),
    });
  }
  return {
    'organization-name': submitter.organization,
    'date-range': { 'start-datetime': `${day}T00:00:00Z`, 'end-datetime': `${day}T23:59:59Z` },
    'contact-info': submitter.contact,
    'report-id': submitter.reportId,
    policies: [...byPolicy.values()],
  };
}

/** The gzipped report, as both delivery methods carry it (RFC 8460 §5.1: `application/tlsrpt+gzip`). */
export function gzipReport(report: TlsReport): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(report), 'utf8'));
}

/**
 * The report mail of RFC 8460 §5.3: `TLS-Report-Domain` and `TLS-Report-Submitter` headers, the
 * subject it suggests, and a `multipart/report; report-type="tlsrpt"` body with a short text part
 * and the gzipped report named `submitter!domain!begin!end.json.gz` (§5.1, Unix seconds).
 */
export function tlsReportMail(opts: {
  report: TlsReport;
  domain: string;
  submitter: string;
  from: string;
  to: string;
  date: Date;
}): Buffer {
  const { report, domain, submitter } = opts;
  const begin = Date.parse(report['date-range']['start-datetime']) / 1000;
  const end = Math.floor(Date.parse(report['date-range']['end-datetime']) / 1000) + 1;
  const boundary = `tlsrpt-${randomBytes(12).toString('hex')}`;
  const body = gzipReport(report)
    .toString('base64')
    .replace(/.{1,76}/g, '$&\r\n');
  const lines = [
    `From: ${opts.from}`,
    `To: ${opts.to}`,
    `Date: ${opts.date.toUTCString().replace('GMT', '+0000')}`,
    `Subject: Report Domain: ${domain} Submitter: ${submitter} Report-ID: <${report['report-id']}>`,
    `Message-ID: <${report['report-id']}.${randomBytes(6).toString('hex')}>`,
    `TLS-Report-Domain: ${domain}`,
    `TLS-Report-Submitter: ${submitter}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type="tlsrpt"; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    'Content-Transfer-Encoding: 7bit',
    '',
    `This is an aggregate TLS report (RFC 8460) from ${submitter} for ${domain}.`,
    '',
    `--${boundary}`,
    'Content-Type: application/tlsrpt+gzip',
    'Content-Transfer-Encoding: base64',
    `Content-Disposition: attachment; filename="${submitter}!${domain}!${begin}!${end}.json.gz"`,
    '',
    body.replace(/\r\n$/, ''),
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}
