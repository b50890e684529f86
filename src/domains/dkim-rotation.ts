/**
 * DKIM key rotation without a gap (docs/delivery.md). Four steps, each audited:
 *
 * 1. rotate (`domain.dkim_rotate`): a new RSA-2048 key under a new selector, stored sealed beside the
 *    signing key as `pending`. Signing goes on with the old key.
 * 2. publish: the customer adds the new TXT record beside the old one.
 * 3. switch (`domain.dkim_switch`): a domain check (the scheduler's re-check, or `domain verify`)
 *    finds the new record (check-domain.ts) and signing moves to the new key in the same update. The
 *    old selector becomes `retired`: its record must stay published, since a receiver fetches the
 *    key when the message arrives, which may be hours or days after signing (RFC 6376 §3.6.2,
 *    and retries and forwarding delay it further), so removing it at once would fail mail signed
 *    just before the switch.
 * 4. retire (`domain.dkim_retire`): after POSTHORN_DKIM_RETIRE_AFTER the old key is forgotten and its
 *    record may be removed.
 *
 * Only one rotation at a time: a rotate while one is pending is a conflict. The Ed25519 key (RFC
 * 8463), when on, is not rotated here: it is rotated by turning Ed25519 off and on (a new key under
 * a new selector); the RSA signature is always there too, so receivers still accept the mail
 * meanwhile (RFC 6376 §6.1).
 */
import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { SCHEDULER_ACTOR, type Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { recordAudit } from '../audit/audit-log.js';
import type { DomainTable } from '../storage/database.js';
import { secretBox } from '../secrets/secret-box.js';
import { secretContext } from '../secrets/secret-fields.js';
import { resolveDomain, type DomainRef } from './add-domain.js';
import { generateDkimKey, rotationSelector } from './dkim-key.js';
import { normalizeHost } from './normalize-host.js';

const DAY_MS = 86_400_000;

/** A DKIM key record of a rotation: the pending one to publish, or the retired one to keep until its date. */
export interface RotationRecord<P extends 'dkim_pending' | 'dkim_retired' = 'dkim_pending' | 'dkim_retired'> {
  purpose: P;
  type: 'TXT';
  name: string;
  value: string;
}

/** The RSA key record (RFC 6376 §3.6.1) at `<selector>._domainkey.<domain>`, as dns-records.ts writes the signing one. */
function keyRecord<P extends RotationRecord['purpose']>(
  purpose: P,
  domain: string,
  selector: string,
  publicKeyB64: string,
): RotationRecord<P> {
  return {
    purpose,
    type: 'TXT' as const,
    name: `${selector}._domainkey.${normalizeHost(domain)}`,
    value: `v=DKIM1; k=rsa; p=${publicKeyB64}`,
  };
}

/** The record a pending rotation waits for, or null when none is pending. */
export function pendingDkimRecord(
  d: Pick<DomainTable, 'name' | 'dkim_pending_selector' | 'dkim_pending_public_key'>,
): RotationRecord<'dkim_pending'> | null {
  if (d.dkim_pending_selector === null || d.dkim_pending_public_key === null) return null;
  return keyRecord('dkim_pending', d.name, d.dkim_pending_selector, d.dkim_pending_public_key);
}

/** The old selector's record, to keep published until `dkim_retired_until`; null when there is none. */
export function retiredDkimRecord(
  d: Pick<DomainTable, 'name' | 'dkim_retired_selector' | 'dkim_retired_public_key'>,
): RotationRecord<'dkim_retired'> | null {
  if (d.dkim_retired_selector === null || d.dkim_retired_public_key === null) return null;
  return keyRecord('dkim_retired', d.name, d.dkim_retired_selector, d.dkim_retired_public_key);
}

/** The domain's rotation period in days (its own setting, else POSTHORN_DKIM_ROTATE_DAYS); 0 is never. */
export function rotateDays(config: Pick<Deps['config'], 'dkimRotateDays'>, d: Pick<DomainTable, 'dkim_rotate_days'>) {
  return d.dkim_rotate_days ?? config.dkimRotateDays;
}

/** When the signing key began to sign (the domain's creation for keys older than that column). */
export function keyCreatedAt(d: Pick<DomainTable, 'dkim_key_created_at' | 'created_at'>): number {
  return Number(d.dkim_key_created_at ?? d.created_at);
}

/** When the schedule starts the next rotation, or null when it never will (off, or one is pending). */
export function nextRotationAt(
  config: Pick<Deps['config'], 'dkimRotateDays'>,
  d: Pick<DomainTable, 'dkim_rotate_days' | 'dkim_key_created_at' | 'created_at' | 'dkim_pending_selector' | 'sandbox'>,
): number | null {
  const days = rotateDays(config, d);
  if (days === 0 || d.dkim_pending_selector !== null || d.sandbox === 1) return null;
  return keyCreatedAt(d) + days * DAY_MS;
}

/** What a rotation started: the domain as stored after it, and the record to publish. */
export interface RotationStarted {
  domain: DomainTable;
  record: RotationRecord<'dkim_pending'>;
}

/**
 * Starts a rotation: a new RSA-2048 key under a new selector (rotationSelector), sealed at rest
 * like the signing key, pending until its record is found in DNS. Refused (409 `conflict`) while
 * another is pending, and for the sandbox domain, whose key is never published. The update is
 * conditional on no rotation being pending, so two rotates at once make one key.
 */
export async function rotateDkim(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  ref: DomainRef,
  actor: Actor,
): Promise<RotationStarted> {
  const domain = await resolveDomain(deps, ref);
  if (domain.sandbox === 1)
    throw new RefusedError(
      'invalid',
      `${domain.name} is the sandbox domain: its mail never leaves this machine, so its DKIM key is never published or rotated`,
      { field: 'domain', subject: { kind: 'domain', name: domain.name } },
    );
  if (domain.dkim_pending_selector !== null) throw alreadyPending(domain);
  const now = deps.clock.now();
  const key = await generateDkimKey();
  const selector = rotationSelector(now, [domain.dkim_selector, domain.dkim_retired_selector, domain.ed25519_selector]);
  const set = {
    dkim_pending_selector: selector,
    dkim_pending_private_key: secretBox(deps.config).seal(
      key.privateKeyPem,
      secretContext('domains.dkim_pending_private_key', domain.id),
    ),
    dkim_pending_public_key: key.publicKeyB64,
    dkim_pending_since: now,
    dkim_pending_check: null,
    dkim_pending_warned_at: null,
  } satisfies Partial<DomainTable>;
  const started = await deps.db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('domains')
      .set(set)
      .where('id', '=', domain.id)
      .where('dkim_pending_selector', 'is', null)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    await recordAudit(trx, deps, {
      accountId: domain.account_id,
      actor,
      action: 'domain.dkim_rotate',
      target: `${domain.name} (new selector ${selector}, pending; signing stays on ${domain.dkim_selector} until its record is found)`,
    });
    return true;
  });
  if (!started) {
    throw alreadyPending(await resolveDomain(deps, domain.name));
  }
  const row: DomainTable = { ...domain, ...set };
  return { domain: row, record: pendingDkimRecord(row)! };
}

function alreadyPending(d: DomainTable): RefusedError {
  const where = d.dkim_pending_selector === null ? '' : ` (${d.dkim_pending_selector}._domainkey.${d.name})`;
  return new RefusedError(
    'conflict',
    `a DKIM rotation of ${d.name} is already pending${where}: publish its record; signing moves to it once it is found in DNS, and a new rotation may start after that`,
    { field: 'domain', subject: { kind: 'domain', name: d.name } },
  );
}

/**
 * The columns that move signing to the pending key, once its record was found: the pending key
 * becomes the signing key (opened from its pending seal, sealed again under the signing key's field,
 * since each sealed value opens only where it was stored: secrets/secret-box.ts), and the old
 * selector is kept as retired, its record listed until `now + POSTHORN_DKIM_RETIRE_AFTER`. The old
 * private key is dropped: nothing signs with it any more. A selector still retired from an earlier
 * rotation is forgotten now (a rotation within the grace of the previous one cuts that grace short).
 */
export function switchColumns(
  deps: Pick<Deps, 'config'>,
  d: DomainTable,
  now: number,
): Pick<
  DomainTable,
  | 'dkim_selector'
  | 'dkim_private_key'
  | 'dkim_public_key'
  | 'dkim_key_created_at'
  | 'dkim_pending_selector'
  | 'dkim_pending_private_key'
  | 'dkim_pending_public_key'
  | 'dkim_pending_since'
  | 'dkim_pending_check'
  | 'dkim_pending_warned_at'
  | 'dkim_retired_selector'
  | 'dkim_retired_public_key'
  | 'dkim_retired_until'
> {
  if (d.dkim_pending_selector === null || d.dkim_pending_private_key === null || d.dkim_pending_public_key === null)
    throw new Error(`no pending DKIM key for ${d.name}`);
  const box = secretBox(deps.config);
  const pem = box.open(d.dkim_pending_private_key, secretContext('domains.dkim_pending_private_key', d.id));
  return {
    dkim_selector: d.dkim_pending_selector,
    dkim_private_key: box.seal(pem, secretContext('domains.dkim_private_key', d.id)),
    dkim_public_key: d.dkim_pending_public_key,
    dkim_key_created_at: now,
    dkim_pending_selector: null,
    dkim_pending_private_key: null,
    dkim_pending_public_key: null,
    dkim_pending_since: null,
    dkim_pending_check: null,
    dkim_pending_warned_at: null,
    dkim_retired_selector: d.dkim_selector,
    dkim_retired_public_key: d.dkim_public_key,
    dkim_retired_until: now + deps.config.dkimRetireAfter,
  };
}

/** The audit target of a switch, naming both selectors and until when the old record stays. */
export function switchAuditTarget(d: DomainTable, until: number): string {
  const dropped =
    d.dkim_retired_selector !== null ? `; ${d.dkim_retired_selector} from the rotation before is forgotten now` : '';
  return `${d.name} (signing moved from ${d.dkim_selector} to ${d.dkim_pending_selector}; keep ${d.dkim_selector}._domainkey.${d.name} until ${new Date(until).toISOString()}${dropped})`;
}

/**
 * Forgets the retired keys whose grace has ended (`domain.dkim_retire`, by the scheduler): their
 * records may be removed from DNS now. Each update is conditional on the row still holding that
 * selector, so two scheduler nodes forget (and audit) it once. Returns how many.
 */
export async function retireExpiredDkimKeys(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, batch = 100): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db
    .selectFrom('domains')
    .select(['id', 'account_id', 'name', 'dkim_retired_selector'])
    .where('dkim_retired_selector', 'is not', null)
    .where('dkim_retired_until', '<=', now)
    .limit(batch)
    .execute();
  let retired = 0;
  for (const d of due) {
    const done = await deps.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('domains')
        .set({ dkim_retired_selector: null, dkim_retired_public_key: null, dkim_retired_until: null })
        .where('id', '=', d.id)
        .where('dkim_retired_selector', '=', d.dkim_retired_selector)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return false;
      await recordAudit(trx, deps, {
        accountId: d.account_id,
        actor: SCHEDULER_ACTOR,
        action: 'domain.dkim_retire',
        target: `${d.name} (old selector ${d.dkim_retired_selector ?? ''} forgotten; its record ${d.dkim_retired_selector ?? ''}._domainkey.${d.name} may be removed)`,
      });
      return true;
    });
    if (done) retired++;
  }
  return retired;
}

/**
 * Starts the rotations the schedule asks for (POSTHORN_DKIM_ROTATE_DAYS, or the domain's own
 * setting): live, non-sandbox, verified (or warning) domains with no rotation pending whose signing
 * key is older than their period. A pending or unverified domain is left alone: its current record
 * is not even published yet. A few per run (each makes an RSA key). Returns the domains started.
 */
export async function startScheduledRotations(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config' | 'log'>,
  batch = 20,
): Promise<string[]> {
  const now = deps.clock.now();
  const global = deps.config.dkimRotateDays;
  const age = sql<number>`coalesce(dkim_key_created_at, created_at)`;
  const due = await deps.db
    .selectFrom('domains')
    .selectAll()
    .where('sandbox', '=', 0)
    .where('deleted_at', 'is', null)
    .where('status', 'in', ['verified', 'warning'])
    .where('dkim_pending_selector', 'is', null)
    .where((eb) =>
      eb.or([
        // The domain's own period (0 never); bigint before multiplying, as days × ms overflows a 32-bit integer.
        eb.and([
          eb('dkim_rotate_days', '>', 0),
          eb(sql`${age} + cast(dkim_rotate_days as bigint) * ${sql.lit(DAY_MS)}`, '<=', now),
        ]),
        ...(global > 0 ? [eb.and([eb('dkim_rotate_days', 'is', null), eb(age, '<=', now - global * DAY_MS)])] : []),
      ]),
    )
    .orderBy(age)
    .limit(batch)
    .execute();
  const started: string[] = [];
  for (const d of due) {
    try {
      await rotateDkim(deps, d, SCHEDULER_ACTOR);
      started.push(d.name);
    } catch (err) {
      // Someone rotated it by hand between the query and now: nothing to do.
      if (err instanceof RefusedError && err.reason === 'conflict') continue;
      deps.log.error({ err, domain: d.name }, 'scheduled DKIM rotation failed');
    }
  }
  return started;
}
