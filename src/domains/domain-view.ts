import type { Config } from '../config/schema.js';
import type { DomainTable } from '../storage/database.js';
import { domainRecords } from './dns-records.js';

/** The operator's view of a domain (operations.md `domain add` / `domain show`). */
export function domainView(config: Pick<Config, 'spfIncludeHost' | 'bounceHost'>, d: DomainTable) {
  return {
    domain: d.name,
    status: d.status,
    sandbox: d.sandbox === 1,
    records: domainRecords(d.name, d.dkim_selector, d.dkim_public_key, { spfIncludeHost: config.spfIncludeHost, bounceHost: config.bounceHost }),
    verified_at: d.verified_at === null ? null : new Date(d.verified_at).toISOString(),
    checked_at: d.checked_at === null ? null : new Date(d.checked_at).toISOString(),
    failing_since: d.failing_since === null ? null : new Date(d.failing_since).toISOString(),
  };
}
