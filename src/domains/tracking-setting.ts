import type { DomainTable } from '../storage/database.js';

/** A domain's tracking defaults as the API names them (docs/tracking.md, Settings). */
export interface TrackingDefaults {
  opens: boolean;
  clicks: boolean;
  unsubscribe: boolean;
}

/** The `domain set` option of each default. */
export const TRACKING_OPTIONS = {
  'track-opens': 'opens',
  'track-clicks': 'clicks',
  unsubscribe: 'unsubscribe',
} as const satisfies Record<string, keyof TrackingDefaults>;
export type TrackingOption = keyof typeof TRACKING_OPTIONS;

const COLUMNS = { opens: 'track_opens', clicks: 'track_clicks', unsubscribe: 'unsubscribe' } as const;

/** The domain's tracking defaults, read from its 0/1 columns. */
export function trackingDefaults(
  d: Pick<DomainTable, 'track_opens' | 'track_clicks' | 'unsubscribe'>,
): TrackingDefaults {
  return { opens: d.track_opens === 1, clicks: d.track_clicks === 1, unsubscribe: d.unsubscribe === 1 };
}

/**
 * The column values for the tracking defaults in `changes` that differ from `domain`'s (open pixel,
 * click rewriting, List-Unsubscribe); each message may override them. They apply to messages accepted
 * from then on: a queued message keeps what was resolved at its submit.
 */
export function trackingColumns(
  domain: DomainTable,
  changes: Partial<TrackingDefaults>,
): Partial<Pick<DomainTable, 'track_opens' | 'track_clicks' | 'unsubscribe'>> {
  const set: Partial<Pick<DomainTable, 'track_opens' | 'track_clicks' | 'unsubscribe'>> = {};
  for (const key of Object.keys(COLUMNS) as (keyof TrackingDefaults)[]) {
    const v = changes[key];
    const column = COLUMNS[key];
    if (v !== undefined && (v ? 1 : 0) !== domain[column]) set[column] = v ? 1 : 0;
  }
  return set;
}
