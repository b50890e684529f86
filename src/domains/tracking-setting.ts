import type { Deps } from '../deps.js';
import type { DomainTable } from '../storage/database.js';
import { findDomain } from './add-domain.js';

/** The domain columns `domain set` can change for tracking (docs/tracking.md, Settings), by CLI option name. */
export const TRACKING_OPTIONS = {
  'track-opens': 'track_opens',
  'track-clicks': 'track_clicks',
  unsubscribe: 'unsubscribe',
} as const;
export type TrackingOption = keyof typeof TRACKING_OPTIONS;

/**
 * Sets a domain's tracking defaults (open pixel, click rewriting, List-Unsubscribe); each message
 * may override them. Applies to messages accepted from now on: a queued message keeps what was
 * resolved at its submit.
 */
export async function setTracking(
  deps: Pick<Deps, 'db'>,
  domainName: string,
  changes: Partial<Record<TrackingOption, boolean>>,
): Promise<DomainTable> {
  const domain = await findDomain(deps, domainName);
  const set: Partial<Pick<DomainTable, 'track_opens' | 'track_clicks' | 'unsubscribe'>> = {};
  for (const [option, column] of Object.entries(TRACKING_OPTIONS) as [
    TrackingOption,
    (typeof TRACKING_OPTIONS)[TrackingOption],
  ][]) {
    const v = changes[option];
    if (v !== undefined) set[column] = v ? 1 : 0;
  }
  if (Object.keys(set).length === 0) return domain;
  await deps.db.updateTable('domains').set(set).where('id', '=', domain.id).execute();
  return { ...domain, ...set };
}
