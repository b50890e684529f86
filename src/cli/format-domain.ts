import type { DomainRecord } from '../domains/dns-records.js';
import type { DomainChecks } from '../domains/verify-domain.js';
import type { ComplaintRate } from '../feedback/complaint-rate.js';

const pad = (s: string, n: number): string => s.padEnd(n);

/** The records to publish, one block per record: purpose, type and name, then the value on its own line to copy. */
export function recordsText(records: DomainRecord[]): string {
  return records
    .map((r) => `  ${pad(r.purpose, 12)} ${pad(r.type, 6)} ${r.name}\n  ${pad('', 12)} ${r.value}`)
    .join('\n');
}

/** Each check: ok or FAILED, and for a failure what was expected, what was found and what to do. */
export function checksText(checks: DomainChecks, records: DomainRecord[]): string {
  return records
    .map((r) => {
      const c = checks[r.purpose];
      const head = `  ${pad(r.purpose, 12)} ${pad(c.ok ? 'ok' : 'FAILED', 7)} ${r.type} ${r.name}`;
      const notes = (c.warnings ?? []).map((w) => `\n  ${pad('', 12)} note: ${w}`).join('');
      if (c.ok) return head + notes;
      const found = c.found.length === 0 ? '(nothing)' : c.found.map((f) => JSON.stringify(f)).join(', ');
      return `${head}\n  ${pad('', 12)} expected: ${c.expected}\n  ${pad('', 12)} found:    ${found}\n  ${pad('', 12)} problem:  ${c.problem ?? 'does not match'}${notes}`;
    })
    .join('\n');
}

/** `spf, dkim` — the purposes whose check failed. */
export function failedPurposes(checks: DomainChecks): string[] {
  return Object.entries(checks)
    .filter(([, c]) => !c.ok)
    .map(([purpose]) => purpose);
}

/** `0.050% (1 of 2000 delivered, last 30 days); limit 0.1%, warning above 0.08%`. */
export function complaintRateText(r: ComplaintRate): string {
  const pct = (x: number): string => `${Number((x * 100).toFixed(3))}%`;
  const rate = r.rate === null ? 'no deliveries' : pct(r.rate);
  const note =
    r.rate !== null && r.rate > r.threshold
      ? ' — OVER THE LIMIT'
      : r.rate !== null && r.rate > r.warning_at
        ? ' — above the warning level'
        : '';
  return `${rate} (${r.complaints} ${r.complaints === 1 ? 'complaint' : 'complaints'}, ${r.delivered} delivered, last ${r.window_days} days); limit ${pct(r.threshold)}, warning above ${pct(r.warning_at)}${note}`;
}

/** `opens on, clicks off, unsubscribe on`: a domain's tracking defaults. */
export function trackingText(t: { track_opens: boolean; track_clicks: boolean; unsubscribe: boolean }): string {
  const on = (b: boolean) => (b ? 'on' : 'off');
  return `opens ${on(t.track_opens)}, clicks ${on(t.track_clicks)}, unsubscribe ${on(t.unsubscribe)}`;
}
