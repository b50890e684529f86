import type { Deps } from '../deps.js';
import type { Config } from '../config/schema.js';
import { complaintRate, type ComplaintRate } from '../feedback/complaint-rate.js';
import type { DomainStatus, DomainTable } from '../storage/database.js';
import type { CheckResult } from './check-result.js';
import { isLookupFailure } from './dns-lookup.js';
import { domainRecords, ed25519Record, type RecordPurpose } from './dns-records.js';
import { isDmarcRecord } from './dmarc-record.js';
import { isSpfRecord } from './spf-terms.js';
import { trackingDefaults, type TrackingDefaults } from './tracking-setting.js';
import type { StoredChecks } from './verify-domain.js';
import { keyCreatedAt, nextRotationAt, pendingDkimRecord, retiredDkimRecord } from './dkim-rotation.js';

/**
 * What the last check saw of a record: `ok`; `missing` (nothing of its kind at the name);
 * `mismatch` (something is there, but not what it must be); `unknown` (not checked yet, the resolver
 * did not answer, or the record changed since, as when Ed25519 signing is turned on again).
 */
export type RecordStatus = 'ok' | 'missing' | 'mismatch' | 'unknown';

/** One record to publish, with what the last check found at its name. */
export interface RecordState {
  purpose: RecordPurpose | 'dkim_ed25519' | 'dkim_pending';
  type: 'TXT' | 'CNAME';
  name: string;
  value: string;
  status: RecordStatus;
  /** The values found at the name by the last check (empty when none, or not checked). */
  found: string[];
}

/**
 * The domain's DKIM keys through a rotation (docs/delivery.md): the selector signing
 * now, the pending one waiting for its record, and the retired one whose record stays until a date.
 */
export interface DkimState {
  selector: string;
  key_created_at: string;
  /** The domain's own rotation period in days; null follows POSTHORN_DKIM_ROTATE_DAYS, 0 never. */
  rotate_days: number | null;
  /** When the schedule starts the next rotation; null when it never will (off, or one is pending). */
  next_rotation_at: string | null;
  pending: {
    selector: string;
    type: 'TXT';
    name: string;
    value: string;
    status: RecordStatus;
    found: string[];
    /** What the last check of the record said was wrong; null when not checked yet or found. */
    problem: string | null;
    since: string;
  } | null;
  retired: { selector: string; type: 'TXT'; name: string; value: string; remove_after: string } | null;
}

/** A domain as the management API shows it (docs/api.md, Management API). */
export interface DomainResource {
  name: string;
  status: DomainStatus;
  created_at: string;
  verified_at: string | null;
  last_checked_at: string | null;
  records: RecordState[];
  tracking: TrackingDefaults;
  ed25519: boolean;
  dkim: DkimState;
  /** The sandbox domain: verified without DNS, its mail kept in the sandbox mailbox (sandbox mode only). */
  sandbox: boolean;
  complaint_rate: ComplaintRate;
  month: { accepted: number; quota: number | null; domain_accepted: number };
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(Number(ms)).toISOString());

/**
 * The status of one record from its stored check. SPF and DMARC share their names with other TXT
 * records (site verifications and the like), so only records of their own kind count as present.
 */
export function recordStatus(
  purpose: RecordState['purpose'],
  value: string,
  check: CheckResult | undefined,
): Pick<RecordState, 'status' | 'found'> {
  if (check === undefined || check.expected !== value) return { status: 'unknown', found: [] };
  if (check.ok) return { status: 'ok', found: check.found };
  if (isLookupFailure(check.problem)) return { status: 'unknown', found: [] };
  const own =
    purpose === 'spf'
      ? check.found.filter(isSpfRecord)
      : purpose === 'dmarc'
        ? check.found.filter(isDmarcRecord)
        : check.found;
  return { status: own.length === 0 ? 'missing' : 'mismatch', found: check.found };
}

/** The DKIM keys of a domain through a rotation, for the API's domain object and `domain show`. */
export function dkimState(config: Pick<Config, 'dkimRotateDays'>, d: DomainTable): DkimState {
  const pending = pendingDkimRecord(d);
  const retired = retiredDkimRecord(d);
  const pendingCheck = d.dkim_pending_check === null ? undefined : (JSON.parse(d.dkim_pending_check) as CheckResult);
  const next = nextRotationAt(config, d);
  return {
    selector: d.dkim_selector,
    key_created_at: iso(keyCreatedAt(d))!,
    rotate_days: d.dkim_rotate_days === null ? null : Number(d.dkim_rotate_days),
    next_rotation_at: iso(next),
    pending:
      pending === null
        ? null
        : {
            selector: d.dkim_pending_selector!,
            type: pending.type,
            name: pending.name,
            value: pending.value,
            ...recordStatus('dkim_pending', pending.value, pendingCheck),
            problem: pendingCheck === undefined || pendingCheck.ok ? null : (pendingCheck.problem ?? null),
            since: iso(d.dkim_pending_since)!,
          },
    retired:
      retired === null
        ? null
        : {
            selector: d.dkim_retired_selector!,
            type: retired.type,
            name: retired.name,
            value: retired.value,
            remove_after: iso(d.dkim_retired_until)!,
          },
  };
}

/** The four records (and the Ed25519 one while it is on) with what the last check found. */
export function recordStates(config: Pick<Config, 'spfIncludeHost' | 'bounceHost'>, d: DomainTable): RecordState[] {
  const checks = d.last_checks === null ? {} : (JSON.parse(d.last_checks) as Partial<StoredChecks>);
  const records: (Omit<RecordState, 'status' | 'found'> & { purpose: keyof StoredChecks })[] = domainRecords(
    d.name,
    d.dkim_selector,
    d.dkim_public_key,
    {
      spfIncludeHost: config.spfIncludeHost,
      bounceHost: config.bounceHost,
    },
  );
  const ed25519 = ed25519Record(d);
  if (ed25519 !== null) records.push(ed25519);
  const states: RecordState[] = records.map((r) => ({ ...r, ...recordStatus(r.purpose, r.value, checks[r.purpose]) }));
  // A DKIM rotation's new record, to publish beside the signing one (docs/delivery.md).
  const pending = pendingDkimRecord(d);
  if (pending !== null) {
    const check = d.dkim_pending_check === null ? undefined : (JSON.parse(d.dkim_pending_check) as CheckResult);
    states.push({ ...pending, ...recordStatus(pending.purpose, pending.value, check) });
  }
  return states;
}

/** The calendar month (UTC) of `now`, as the volume table keys it. */
const monthOf = (now: number): string => new Date(now).toISOString().slice(0, 7);

/**
 * The account's accepted recipients this calendar month (UTC) and its monthly quota: the figures
 * the quota is counted on (docs/api.md, Rate limits and quota). Account-wide, since the quota is.
 */
export async function accountMonth(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  now: number,
): Promise<{ accepted: number; quota: number | null }> {
  const [volume, account] = await Promise.all([
    deps.db
      .selectFrom('volume')
      .select('count')
      .where('account_id', '=', accountId)
      .where('month', '=', monthOf(now))
      .executeTakeFirst(),
    deps.db.selectFrom('accounts').select('monthly_quota').where('id', '=', accountId).executeTakeFirst(),
  ]);
  const quota = account?.monthly_quota ?? null;
  return { accepted: Number(volume?.count ?? 0), quota: quota === null ? null : Number(quota) };
}

/**
 * The domain's own recipients accepted this calendar month (UTC): its `accepted-by-system` events,
 * counted on the (domain, event, time) index. The quota's count is the account's (accountMonth).
 */
async function domainMonth(deps: Pick<Deps, 'db'>, domainId: string, now: number): Promise<number> {
  const start = new Date(now);
  const from = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1);
  const row = await deps.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('domain_id', '=', domainId)
    .where('event', '=', 'accepted-by-system')
    .where('occurred_at', '>=', from)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A domain row as the management API's domain object; `month` is given when several domains share it. */
export async function domainResource(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  d: DomainTable,
  month?: Omit<DomainResource['month'], 'domain_accepted'>,
): Promise<DomainResource> {
  const now = deps.clock.now();
  return {
    name: d.name,
    status: d.status,
    created_at: iso(d.created_at)!,
    verified_at: iso(d.verified_at),
    last_checked_at: iso(d.checked_at),
    records: recordStates(deps.config, d),
    tracking: trackingDefaults(d),
    ed25519: d.ed25519_private_key !== null,
    dkim: dkimState(deps.config, d),
    sandbox: d.sandbox === 1,
    complaint_rate: await complaintRate(deps.db, d.id, now),
    month: {
      ...(month ?? (await accountMonth(deps, d.account_id, now))),
      domain_accepted: await domainMonth(deps, d.id, now),
    },
  };
}
