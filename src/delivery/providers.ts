/**
 * Mailbox providers: MX host names rolled up by suffix into the few operators that run most
 * mailboxes, each with its own delivery limits (docs/delivery.md). The provider is also the
 * `provider` label of the delivery metrics (docs/observability.md), so a Prometheus series never
 * exists per host or per domain.
 */
import type { ProviderSetting } from '../config/parse-providers.js';

/** A provider's name: a built-in one, one from POSTHORN_PROVIDERS, or `other`. */
export type Provider = string;

/** Everything not matched by a provider's suffixes: shaped per host, as before providers existed. */
export const OTHER: Provider = 'other';

export interface ProviderLimits {
  /** SMTP sessions open at once to the provider, over all its hosts (`other`: per host). */
  connections: number;
  /** A session is closed after this many transactions. */
  messagesPerConnection: number;
  /** Recipients per minute, over the cluster; null: no per-minute limit (`other`). */
  perMinute: number | null;
}

export interface ProviderSpec extends ProviderLimits {
  name: Provider;
  /** MX host name suffixes (their published MX records), and the provider's own mail domains. */
  suffixes: string[];
  /**
   * Whether throttling replies slow it down and reputation blocks suspend it (provider-gate.ts).
   * Not for `other`: its hosts are unrelated, and one host's refusal says nothing of another's.
   */
  adaptive: boolean;
}

/**
 * The built-in providers and their limits. The limits are the conservative ones bulk senders'
 * MTAs start from for these receivers (few sessions, a bounded number of messages per session —
 * Yahoo closes long sessions — and a per-minute pace the adaptive rule lowers when asked);
 * POSTHORN_PROVIDERS changes them.
 */
export const BUILT_IN_PROVIDERS: readonly Omit<ProviderSpec, 'adaptive'>[] = [
  {
    name: 'gmail',
    suffixes: ['google.com', 'googlemail.com', 'gmail.com'],
    connections: 20,
    messagesPerConnection: 100,
    perMinute: 1200,
  },
  {
    name: 'outlook',
    suffixes: ['outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'office365.com', 'microsoft.com'],
    connections: 10,
    messagesPerConnection: 100,
    perMinute: 600,
  },
  {
    name: 'yahoo',
    suffixes: ['yahoodns.net', 'yahoo.com', 'ymail.com', 'aol.com'],
    connections: 10,
    messagesPerConnection: 20,
    perMinute: 600,
  },
  {
    name: 'apple',
    suffixes: ['icloud.com', 'me.com', 'mac.com', 'apple.com'],
    connections: 10,
    messagesPerConnection: 50,
    perMinute: 600,
  },
];

/** `other`'s limits: today's per-host pool (POSTHORN_MX_MAX_CONNECTIONS, 1000 per session), no pace. */
const OTHER_MESSAGES_PER_CONNECTION = 1000;

/** The providers of one configuration and the classifier over their suffixes. */
export interface ProviderTable {
  /** Every provider, `other` last. */
  list: readonly ProviderSpec[];
  /** The provider behind `host` (an MX host name, or a recipient domain): the longest matching suffix wins. */
  of(host: string | null | undefined): Provider;
  /** The spec of a provider name; `other`'s for a name the table does not know. */
  spec(name: Provider): ProviderSpec;
}

/**
 * The built-in providers merged with POSTHORN_PROVIDERS: suffixes given for a built-in provider are
 * added to its own, limits given replace its own; a new name is a new provider with `other`'s limits
 * unless given. `otherConnections` is POSTHORN_MX_MAX_CONNECTIONS.
 */
export function providerTable(settings: readonly ProviderSetting[], otherConnections: number): ProviderTable {
  const other: ProviderSpec = {
    name: OTHER,
    suffixes: [],
    connections: otherConnections,
    messagesPerConnection: OTHER_MESSAGES_PER_CONNECTION,
    perMinute: null,
    adaptive: false,
  };
  const byName = new Map<Provider, ProviderSpec>(
    BUILT_IN_PROVIDERS.map((p) => [p.name, { ...p, suffixes: [...p.suffixes], adaptive: true }]),
  );
  for (const s of settings) {
    const base = byName.get(s.name) ?? (s.name === OTHER ? other : { ...other, name: s.name, adaptive: true });
    byName.set(s.name, {
      ...base,
      suffixes: [...new Set([...base.suffixes, ...s.suffixes])],
      ...(s.connections !== undefined ? { connections: s.connections } : {}),
      ...(s.messagesPerConnection !== undefined ? { messagesPerConnection: s.messagesPerConnection } : {}),
      ...(s.perMinute !== undefined ? { perMinute: s.perMinute } : {}),
    });
  }
  const otherSpec = byName.get(OTHER) ?? other;
  byName.delete(OTHER);
  const list = [...byName.values(), { ...otherSpec, suffixes: [], adaptive: false }];
  // Longest suffix first, so `mx.corp.example` given to one provider wins over `example` of another.
  const suffixes = list
    .flatMap((p) => p.suffixes.map((suffix) => ({ suffix, provider: p.name })))
    .sort((a, b) => b.suffix.length - a.suffix.length);
  const specs = new Map(list.map((p) => [p.name, p]));
  return {
    list,
    of(host) {
      if (!host) return OTHER;
      // Events name a host on another port than 25 as `host:port` (smtp-transport.ts).
      const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
      for (const { suffix, provider } of suffixes) {
        if (name === suffix || name.endsWith(`.${suffix}`)) return provider;
      }
      return OTHER;
    },
    spec: (name) => specs.get(name) ?? (specs.get(OTHER) as ProviderSpec),
  };
}

/** The built-in providers' names and `other` (docs/delivery.md); POSTHORN_PROVIDERS may add more (`providerNames`). */
export const PROVIDER_NAMES = ['gmail', 'outlook', 'yahoo', 'apple', OTHER] as const;

/**
 * Every provider name of a configuration, `other` last: the built-in ones and those POSTHORN_PROVIDERS
 * adds. What the queue's `provider` filter and holds accept (docs/delivery.md), as the delivery
 * worker's table (provider-gate.ts) is the one that labels jobs and looks up holds.
 */
export function providerNames(config: { providers: readonly ProviderSetting[] }): string[] {
  const added = config.providers.map((s) => s.name).filter((n) => n !== OTHER && !PROVIDER_NAMES.includes(n as never));
  return [...PROVIDER_NAMES.slice(0, -1), ...new Set(added), OTHER];
}

const DEFAULT_TABLE = providerTable([], 10);

/** The built-in provider behind `host` (an MX host name, or the recipient domain when no MX answered). */
export function providerOf(host: string | null | undefined): Provider {
  return DEFAULT_TABLE.of(host);
}
