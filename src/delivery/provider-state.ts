import type { Deps } from '../deps.js';
import { recordNotice } from '../notices/record-notice.js';
import { afterSuccess, afterThrottle, type RateState } from './rate-controller.js';
import type { Provider } from './providers.js';

/**
 * The stored shaping state of the providers (provider_throttles, provider_suspensions: migration
 * 0020), read by the delivery path through a short cache and written when a reply changes it. On
 * PostgreSQL every node of the cluster shares the pace; a suspension is this node's own
 * (docs/delivery.md).
 */

/** How long the delivery path trusts what it last read; writes by this node update it at once. */
export const STATE_CACHE_MS = 2_000;

export interface ThrottleView extends RateState {
  throttleEvents: number;
  lastThrottleAt: number | null;
  lastReply: string | null;
}

export interface SuspensionView {
  node: string;
  since: number;
  until: number;
  reply: string;
}

export interface ProviderStateStore {
  /** The pace of `provider` (null: never throttled) and this node's suspension of it (null: none now or before). */
  read(provider: Provider): Promise<{ throttle: ThrottleView | null; suspension: SuspensionView | null }>;
  /** A throttling reply: counted, and the rate halved when the rule allows (rate-controller.ts). */
  throttled(provider: Provider, max: number, reply: string): Promise<void>;
  /** A delivery: the rate raised when a round passed cleanly; a write only when the cached state says it is due. */
  succeeded(provider: Provider, max: number): Promise<void>;
  /**
   * Suspends `provider` for this node until `until`, or extends a suspension under way. A new
   * suspension raises a `provider.suspended` notice to `accountId`; true when it was new.
   */
  suspend(provider: Provider, until: number, reply: string, accountId: string): Promise<boolean>;
}

type StateDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'dialect' | 'config'>;

/** The store over the database, with this node's cache. */
export function createProviderStateStore(deps: StateDeps): ProviderStateStore {
  const node = deps.config.hostname;
  let throttles = new Map<Provider, ThrottleView>();
  let suspensions = new Map<Provider, SuspensionView>();
  let readAt = -Infinity;
  let reading: Promise<void> | null = null;

  async function refresh(): Promise<void> {
    const now = deps.clock.now();
    const [t, s] = await Promise.all([
      deps.db.selectFrom('provider_throttles').selectAll().execute(),
      deps.db.selectFrom('provider_suspensions').selectAll().where('node', '=', node).execute(),
    ]);
    throttles = new Map(t.map((r) => [r.provider, throttleView(r)]));
    suspensions = new Map(s.map((r) => [r.provider, suspensionView(r)]));
    readAt = now;
  }

  async function fresh(): Promise<void> {
    if (deps.clock.now() - readAt < STATE_CACHE_MS) return;
    reading ??= refresh().finally(() => {
      reading = null;
    });
    await reading;
  }

  /** Reads and rewrites one provider's pace in a transaction (the row locked on PostgreSQL), by the pure rule `next`. */
  async function update(
    provider: Provider,
    max: number,
    next: (s: RateState, now: number) => RateState,
    reply: string | null,
  ): Promise<void> {
    const now = deps.clock.now();
    const view = await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('provider_throttles')
        .values({ provider, rate: max, updated_at: now })
        .onConflict((oc) => oc.column('provider').doNothing())
        .execute();
      let q = trx.selectFrom('provider_throttles').selectAll().where('provider', '=', provider);
      if (deps.dialect === 'postgres') q = q.forUpdate();
      const row = throttleView(await q.executeTakeFirstOrThrow());
      const s = next(row, now);
      const changed = s.rate !== row.rate || reply !== null;
      if (!changed) return row;
      const counted =
        reply === null
          ? {}
          : { throttle_events: row.throttleEvents + 1, last_throttle_at: now, last_reply: reply.slice(0, 500) };
      await trx
        .updateTable('provider_throttles')
        .set({ rate: s.rate, decreased_at: s.decreasedAt, increased_at: s.increasedAt, updated_at: now, ...counted })
        .where('provider', '=', provider)
        .execute();
      return {
        ...row,
        ...s,
        ...(reply === null
          ? {}
          : { throttleEvents: row.throttleEvents + 1, lastThrottleAt: now, lastReply: reply.slice(0, 500) }),
      };
    });
    throttles.set(provider, view);
  }

  return {
    async read(provider) {
      await fresh();
      return { throttle: throttles.get(provider) ?? null, suspension: suspensions.get(provider) ?? null };
    },

    throttled(provider, max, reply) {
      return update(provider, max, (s, now) => afterThrottle(s, max, now), reply);
    },

    async succeeded(provider, max) {
      await fresh();
      const cached = throttles.get(provider);
      // Never throttled, or the rule would change nothing now: no write.
      if (cached === undefined) return;
      const now = deps.clock.now();
      if (afterSuccess(cached, max, now) === cached) return;
      await update(provider, max, (s, at) => afterSuccess(s, max, at), null);
    },

    async suspend(provider, until, reply, accountId) {
      const now = deps.clock.now();
      const text = reply.slice(0, 500);
      const view = await deps.db.transaction().execute(async (trx) => {
        let q = trx
          .selectFrom('provider_suspensions')
          .selectAll()
          .where('provider', '=', provider)
          .where('node', '=', node);
        if (deps.dialect === 'postgres') q = q.forUpdate();
        const existing = await q.executeTakeFirst();
        const current = existing === undefined ? null : suspensionView(existing);
        if (current !== null && current.until > now) {
          if (until > current.until)
            await trx
              .updateTable('provider_suspensions')
              .set({ until, reply: text })
              .where('provider', '=', provider)
              .where('node', '=', node)
              .execute();
          return { view: { ...current, until: Math.max(until, current.until) }, fresh: false };
        }
        await trx
          .insertInto('provider_suspensions')
          .values({ provider, node, since: now, until, reply: text })
          .onConflict((oc) => oc.columns(['provider', 'node']).doUpdateSet({ since: now, until, reply: text }))
          .execute();
        await recordNotice(trx, deps.ids, now, {
          accountId,
          domainId: null,
          kind: 'provider.suspended',
          message: `${provider}: delivery from ${node} suspended until ${new Date(until).toISOString()} after a block: ${text}; its mail is deferred, not failed`,
          details: { provider, node, until: new Date(until).toISOString(), reply: text },
        });
        return { view: { node, since: now, until, reply: text }, fresh: true };
      });
      suspensions.set(provider, view.view);
      return view.fresh;
    },
  };
}

interface ThrottleRow {
  rate: number;
  decreased_at: number | string;
  increased_at: number | string;
  throttle_events: number | string;
  last_throttle_at: number | string | null;
  last_reply: string | null;
}

/** PostgreSQL gives BIGINT as text: every time and count becomes a number here. */
function throttleView(r: ThrottleRow): ThrottleView {
  return {
    rate: Number(r.rate),
    decreasedAt: Number(r.decreased_at),
    increasedAt: Number(r.increased_at),
    throttleEvents: Number(r.throttle_events),
    lastThrottleAt: r.last_throttle_at === null ? null : Number(r.last_throttle_at),
    lastReply: r.last_reply,
  };
}

function suspensionView(r: {
  node: string;
  since: number | string;
  until: number | string;
  reply: string;
}): SuspensionView {
  return { node: r.node, since: Number(r.since), until: Number(r.until), reply: r.reply };
}
