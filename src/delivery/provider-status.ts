import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { providerTable, type ProviderSpec } from './providers.js';

/**
 * The providers as `posthorn provider list|show` and `GET /v1/providers` show them: the configured
 * limits and the automatic shaping state read from the database now (docs/delivery.md).
 */
export interface ProviderView {
  provider: string;
  suffixes: string[];
  connections: number;
  messages_per_connection: number;
  /** The configured maximum pace, recipients per minute; null: none. */
  per_minute: number | null;
  /** Whether throttling replies and blocks change its state (not `other`). */
  adaptive: boolean;
  /** The pace now, recipients per minute; null without a per-minute limit. */
  rate: number | null;
  /** True while the pace is below the maximum after throttling replies. */
  throttled: boolean;
  throttle_events: number;
  last_throttle_at: string | null;
  last_reply: string | null;
  /** True while any node has it suspended after a reputation block. */
  suspended: boolean;
  /** The suspensions in force, one per node. */
  suspensions: { node: string; since: string; until: string; reply: string }[];
}

const iso = (ms: number | string): string => new Date(Number(ms)).toISOString();

/** Every provider of the configuration, `other` last. */
export async function listProviders(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<ProviderView[]> {
  const table = providerTable(deps.config.providers, deps.config.mxMaxConnections);
  const now = deps.clock.now();
  const [throttles, suspensions] = await Promise.all([
    deps.db.selectFrom('provider_throttles').selectAll().execute(),
    deps.db.selectFrom('provider_suspensions').selectAll().where('until', '>', now).orderBy('node').execute(),
  ]);
  return table.list.map((spec: ProviderSpec): ProviderView => {
    const t = throttles.find((r) => r.provider === spec.name);
    const active = suspensions.filter((s) => s.provider === spec.name);
    const rate = spec.perMinute === null ? null : Math.min(spec.perMinute, t === undefined ? Infinity : Number(t.rate));
    return {
      provider: spec.name,
      suffixes: spec.suffixes,
      connections: spec.connections,
      messages_per_connection: spec.messagesPerConnection,
      per_minute: spec.perMinute,
      adaptive: spec.adaptive,
      rate: rate === null ? null : Math.round(rate * 100) / 100,
      throttled: rate !== null && spec.perMinute !== null && rate < spec.perMinute,
      throttle_events: t === undefined ? 0 : Number(t.throttle_events),
      last_throttle_at: t?.last_throttle_at == null ? null : iso(t.last_throttle_at),
      last_reply: t?.last_reply ?? null,
      suspended: active.length > 0,
      suspensions: active.map((s) => ({ node: s.node, since: iso(s.since), until: iso(s.until), reply: s.reply })),
    };
  });
}

/** One provider by name; an unknown name is refused naming `provider`. */
export async function showProvider(deps: Pick<Deps, 'db' | 'clock' | 'config'>, name: string): Promise<ProviderView> {
  const all = await listProviders(deps);
  const found = all.find((p) => p.provider === name.trim().toLowerCase());
  if (found === undefined)
    throw new RefusedError(
      'not_found',
      `no provider named ${JSON.stringify(name)}: the providers are ${all.map((p) => p.provider).join(', ')} (POSTHORN_PROVIDERS adds more)`,
      { field: 'provider' },
    );
  return found;
}
