import type { Config } from '../config/schema.js';
import type { DomainTable } from '../storage/database.js';
import { domainRecords, ed25519Record } from './dns-records.js';
import { dkimState } from './domain-resource.js';

/** The operator's view of a domain (`posthorn domain add` / `domain show`). */
export function domainView(config: Pick<Config, 'spfIncludeHost' | 'bounceHost' | 'dkimRotateDays'>, d: DomainTable) {
  return {
    domain: d.name,
    status: d.status,
    sandbox: d.sandbox === 1,
    records: domainRecords(d.name, d.dkim_selector, d.dkim_public_key, {
      spfIncludeHost: config.spfIncludeHost,
      bounceHost: config.bounceHost,
    }),
    verified_at: d.verified_at === null ? null : new Date(d.verified_at).toISOString(),
    checked_at: d.checked_at === null ? null : new Date(d.checked_at).toISOString(),
    failing_since: d.failing_since === null ? null : new Date(d.failing_since).toISOString(),
    /** The optional Ed25519 record (RFC 8463), published beside the four; null when off. */
    dkim_ed25519: (() => {
      const r = ed25519Record(d);
      return r === null ? null : { type: r.type, name: r.name, value: r.value };
    })(),
    /** The signing selector, a pending rotation's record and status, a retired selector's removal date (docs/delivery.md). */
    dkim: dkimState(config, d),
    /** Tracking and unsubscribe defaults for this domain's messages; each message may override them (docs/tracking.md). */
    tracking: {
      track_opens: d.track_opens === 1,
      track_clicks: d.track_clicks === 1,
      unsubscribe: d.unsubscribe === 1,
    },
  };
}
