import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { recordAudit } from '../audit/audit-log.js';
import type { DomainTable } from '../storage/database.js';
import { resolveDomain, type DomainRef } from './add-domain.js';
import { ed25519Columns } from './ed25519-columns.js';
import { trackingColumns, trackingDefaults, type TrackingDefaults } from './tracking-setting.js';

/** The settings `domain set` and `PATCH /v1/domains/{domain}` change; any subset. */
export interface DomainChanges {
  tracking?: Partial<TrackingDefaults>;
  ed25519?: boolean;
  /** The domain's DKIM rotation period in days (0 never); null follows POSTHORN_DKIM_ROTATE_DAYS. */
  dkimRotateDays?: number | null;
}

const onOff = (b: boolean): string => (b ? 'on' : 'off');

/**
 * Changes a domain's tracking defaults, Ed25519 signing and DKIM rotation period in one update, with one audit entry
 * (`domain.update`, naming what changed) when `actor` is given and something did change. A change
 * to what is already set is no change: nothing is written.
 */
export async function updateDomain(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  ref: DomainRef,
  changes: DomainChanges,
  actor?: Actor,
): Promise<DomainTable> {
  const domain = await resolveDomain(deps, ref);
  const tracking = trackingColumns(domain, changes.tracking ?? {});
  const ed25519 = changes.ed25519 === undefined ? null : ed25519Columns(deps, domain, changes.ed25519);
  const rotate =
    changes.dkimRotateDays === undefined || changes.dkimRotateDays === domain.dkim_rotate_days
      ? {}
      : { dkim_rotate_days: changes.dkimRotateDays };
  const set = { ...tracking, ...ed25519, ...rotate };
  if (Object.keys(set).length === 0) return domain;
  const said = [
    ...(['opens', 'clicks', 'unsubscribe'] as const)
      .filter((k) => trackingDefaults({ ...domain, ...tracking })[k] !== trackingDefaults(domain)[k])
      .map((k) => `tracking.${k} ${onOff(changes.tracking?.[k] === true)}`),
    ...(ed25519 !== null ? [`ed25519 ${onOff(changes.ed25519 === true)}`] : []),
    ...('dkim_rotate_days' in rotate
      ? [
          `dkim rotation ${rotate.dkim_rotate_days === null ? 'as the server' : rotate.dkim_rotate_days === 0 ? 'never' : `every ${rotate.dkim_rotate_days} days`}`,
        ]
      : []),
  ];
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('domains').set(set).where('id', '=', domain.id).execute();
    if (actor)
      await recordAudit(trx, deps, {
        accountId: domain.account_id,
        actor,
        action: 'domain.update',
        target: `${domain.name} (${said.join(', ')})`,
      });
  });
  return { ...domain, ...set };
}
