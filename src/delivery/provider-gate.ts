import type { Deps } from '../deps.js';
import type { SmtpReply } from '../core/smtp-reply.js';
import { providerSignal, retryAfterOf } from './provider-signal.js';
import { createProviderStateStore, type ProviderStateStore } from './provider-state.js';
import { providerTable, type Provider, type ProviderTable } from './providers.js';
import { burstOf } from './rate-controller.js';

/**
 * Automatic delivery shaping per mailbox provider (docs/delivery.md): whether a group may
 * go to its provider now (checkProvider, the one check of the delivery path), and what the
 * provider's replies change (observeReplies).
 */

/** The furthest ahead a paced group is held; a longer backlog comes back and is spread again. */
export const HOLD_HORIZON_MS = 30_000;

/** Send now, or hold the group back (released to the queue, no attempt counted) until `until`. */
export type ProviderDecision = { kind: 'send' } | { kind: 'hold'; until: number; reason: string };

export interface ProviderShaping {
  table: ProviderTable;
  store: ProviderStateStore;
  /** Per provider, the next time a held group is released to on this node, so held groups come back spread out, not all at once. */
  nextRelease: Map<Provider, number>;
}

export type ShapingDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'dialect' | 'config' | 'limiter' | 'metrics'>;

/** The shaping of one delivery worker: the configured provider table and the shared state store. */
export function createProviderShaping(deps: ShapingDeps): ProviderShaping {
  return {
    table: providerTable(deps.config.providers, deps.config.mxMaxConnections),
    store: createProviderStateStore(deps),
    nextRelease: new Map(),
  };
}

/**
 * Whether `units` recipients may go to `provider` now. Automatic suspension (this node, after a
 * reputation block) comes first, then the provider's pace: its adaptive rate, at most its
 * `per_minute`, as a GCRA in the shared rate limiter (the database on PostgreSQL, so the whole
 * cluster keeps one pace). Manual holds of a provider or domain belong here too, as one more check
 * before the pace, so the delivery path keeps asking one function.
 */
export async function checkProvider(
  deps: ShapingDeps,
  shaping: ProviderShaping,
  provider: Provider,
  units: number,
): Promise<ProviderDecision> {
  const spec = shaping.table.spec(provider);
  if (!spec.adaptive && spec.perMinute === null) return { kind: 'send' };
  const now = deps.clock.now();
  const { throttle, suspension } = await shaping.store.read(provider);
  if (suspension !== null && suspension.until > now)
    return {
      kind: 'hold',
      until: suspension.until,
      reason: `${provider} suspended on this node until ${new Date(suspension.until).toISOString()} after: ${suspension.reply}`,
    };
  if (spec.perMinute === null) return { kind: 'send' };
  const rate = Math.min(spec.perMinute, throttle?.rate ?? spec.perMinute);
  const decision = await deps.limiter.take(`provider:${provider}`, rate / 60, now, {
    burst: burstOf(rate),
    cost: units,
  });
  if (decision.ok) return { kind: 'send' };
  // Held groups are spread one pace interval apart, so they come back in turn rather than all at
  // once, but never further ahead than HOLD_HORIZON_MS: when the pace recovers meanwhile, they are
  // back soon enough to go at the new pace rather than at the slots the old one gave them.
  const interval = (60_000 / rate) * units;
  const earliest = now + Math.ceil(decision.retryAfterMs);
  const horizon = earliest + HOLD_HORIZON_MS;
  // Whole milliseconds: run_at is a BIGINT on PostgreSQL.
  const until = Math.ceil(Math.min(horizon, Math.max(shaping.nextRelease.get(provider) ?? 0, earliest)));
  shaping.nextRelease.set(provider, Math.min(horizon, until + interval));
  if (shaping.nextRelease.size > 1000) shaping.nextRelease.clear(); // a bound for names that come and go
  return { kind: 'hold', until, reason: `${provider} paced at ${Math.round(rate * 10) / 10} per minute` };
}

/** What the replies of one transaction mean for the recipients that deferred, beyond their own outcome. */
export interface ReplyEffects {
  /** Defer these recipients (lower-cased addresses) at least until then: the reply's own "try again in N" or the suspension's end. */
  notBefore: Map<string, number>;
  /** Recipients whose block reply suspended the provider: deferred, not failed. */
  deferBlocked: Set<string>;
}

/**
 * Applies the replies of one transaction to `provider`'s state: a reputation block suspends it on
 * this node (POSTHORN_PROVIDER_SUSPEND) with a notice to `accountId`, a throttling reply lowers
 * its pace, a delivery lets it recover; every reply's "try again in N" is kept for its recipient.
 */
export async function observeReplies(
  deps: ShapingDeps,
  shaping: ProviderShaping,
  provider: Provider,
  replies: { address: string; reply: SmtpReply }[],
  accountId: string,
): Promise<ReplyEffects> {
  const effects: ReplyEffects = { notBefore: new Map(), deferBlocked: new Set() };
  const now = deps.clock.now();
  for (const { address, reply } of replies) {
    const wait = reply.code >= 400 && reply.code < 500 ? retryAfterOf(reply.message) : null;
    if (wait !== null) effects.notBefore.set(address.toLowerCase(), now + wait);
  }
  const spec = shaping.table.spec(provider);
  if (!spec.adaptive) return effects;
  const signals = replies.map((r) => ({ ...r, signal: providerSignal(r.reply) }));
  const block = signals.find((s) => s.signal?.kind === 'block');
  if (block !== undefined) {
    const until = now + deps.config.providerSuspend;
    if (await shaping.store.suspend(provider, until, block.reply.raw, accountId))
      deps.metrics.providerSuspensions.inc({ provider });
    const { suspension } = await shaping.store.read(provider);
    const end = Math.max(until, suspension?.until ?? 0);
    for (const s of signals) {
      if (s.signal?.kind !== 'block') continue;
      effects.deferBlocked.add(s.address.toLowerCase());
      effects.notBefore.set(s.address.toLowerCase(), end);
    }
  }
  const throttles = signals.filter((s) => s.signal?.kind === 'throttle');
  if (throttles.length > 0) {
    deps.metrics.providerThrottles.inc({ provider }, throttles.length);
    if (spec.perMinute !== null) await shaping.store.throttled(provider, spec.perMinute, throttles[0]!.reply.raw);
  } else if (block === undefined && spec.perMinute !== null && replies.some((r) => r.reply.code < 300)) {
    await shaping.store.succeeded(provider, spec.perMinute);
  }
  return effects;
}
