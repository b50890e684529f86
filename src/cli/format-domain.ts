import type { DomainRecord } from '../domains/dns-records.js';
import type { DomainChecks } from '../domains/verify-domain.js';
import type { ComplaintRate } from '../feedback/complaint-rate.js';
import type { DkimState } from '../domains/domain-resource.js';

const pad = (s: string, n: number): string => s.padEnd(n);

/** The records to publish, one block per record: purpose, type and name, then the value on its own line to copy. */
export function recordsText(records: (Pick<DomainRecord, 'type' | 'name' | 'value'> & { purpose: string })[]): string {
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

/** `7d`, `1h`, `90m`, `30s`: a duration in the largest whole unit (the form the settings take). */
export function durationText(ms: number): string {
  const units: [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ];
  for (const [unit, size] of units) if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}

/**
 * The DKIM block of `domain show`: the signing selector and its schedule, a pending rotation's
 * record with what its last check found, a retired selector with the date its record may go.
 */
export function dkimRotationText(dkim: DkimState, serverDays: number): string {
  const days = dkim.rotate_days ?? serverDays;
  const schedule =
    days === 0
      ? `no scheduled rotation${dkim.rotate_days === null ? ' (POSTHORN_DKIM_ROTATE_DAYS is 0)' : ' (this domain: never)'}`
      : `rotates every ${days} days${dkim.rotate_days === null ? ' (POSTHORN_DKIM_ROTATE_DAYS)' : ' (this domain)'}${dkim.next_rotation_at ? `, next ${dkim.next_rotation_at}` : ''}`;
  const lines = ['dkim:', `  signing with: ${dkim.selector} (key from ${dkim.key_created_at}; ${schedule})`];
  if (dkim.pending) {
    const p = dkim.pending;
    lines.push(
      `  pending:      ${p.selector} since ${p.since}, record ${p.status}${p.problem ? ` (${p.problem})` : ''}; signing moves to it once it is found`,
      `  ${pad('dkim_pending', 12)} ${pad(p.type, 6)} ${p.name}`,
      `  ${pad('', 12)} ${p.value}`,
    );
  }
  if (dkim.retired) {
    const r = dkim.retired;
    lines.push(
      `  retired:      ${r.selector}: keep its record until ${r.remove_after}, then remove it`,
      `  ${pad('dkim_retired', 12)} ${pad(r.type, 6)} ${r.name}  (remove after ${r.remove_after})`,
    );
  }
  return lines.join('\n');
}
