import type { Deps } from '../deps.js';
import { createSignerPool } from './dkim/signer-pool.js';
import { startDeliveryWorker, type DeliveryWorker } from './delivery-worker.js';
import { returnPathSecret } from './return-path.js';
import { trackingSecret } from '../tracking/secret.js';
import { createSmtpTransport } from './smtp-transport.js';
import type { Transport } from './transport.js';
import { resolverLookup } from './smtp/resolver-lookup.js';
import { trustedCas } from './security/trust-store.js';
import { createProviderShaping } from './provider-gate.js';

/** How long a stopping worker waits for attempts in flight (a stop must finish within a bounded time). */
const STOP_TIMEOUT_MS = 8_000;

/**
 * The sandbox's part in the delivery role, handed in by whoever starts the role (main.ts, from
 * src/sandbox/sandbox-delivery.ts): the sandbox builds on delivery (its mailbox is a Transport, its
 * triggers read return paths), so delivery takes it as a value rather than importing it.
 */
export interface LocalMailbox {
  /** The local mailbox as a transport: mail that must not leave the machine goes there. */
  transport(): Transport;
  /** Starts the sandbox triggers (open@, click@, …), which act on what the mailbox received. */
  startTriggers(secrets: { returnPathSecret: Buffer; trackingSecret: Buffer }): { stop(): Promise<void> };
}

/** Starts the `delivery` role: signer threads, the transport (SMTP, or the sandbox mailbox) and the worker. */
export async function startDelivery(
  deps: Deps,
  local: LocalMailbox,
): Promise<{ worker: DeliveryWorker; stop(): Promise<void> }> {
  const signer = createSignerPool({ threads: deps.config.dkimThreads });
  const unwatch = deps.metrics.onScrape(() => {
    const s = signer.stats?.() ?? { threads: 0, busyThreads: 0, queued: 0 };
    deps.metrics.dkimThreads.set(s.threads);
    deps.metrics.dkimBusyThreads.set(s.busyThreads);
    deps.metrics.dkimQueued.set(s.queued);
  });
  const shaping = createProviderShaping(deps);
  // Sandbox mode never sends to the internet: its transport is the local mailbox.
  const transport = deps.config.sandbox
    ? local.transport()
    : createSmtpTransport({
        heloName: deps.config.hostname,
        maxConnectionsPerHost: deps.config.mxMaxConnections,
        lookup: resolverLookup(deps.resolver),
        ...(deps.config.tlsCaFile ? { ca: trustedCas(deps.config.tlsCaFile) } : {}),
        providers: shaping.table,
        log: deps.log,
      });
  const secrets = { returnPathSecret: await returnPathSecret(deps), trackingSecret: await trackingSecret(deps) };
  // In production the sandbox domain's leftover mail goes to the local mailbox, never out (deliver-group.ts).
  const localTransport = deps.config.sandbox ? undefined : local.transport();
  const worker = startDeliveryWorker(
    deps,
    { signer, transport, shaping, ...(localTransport ? { localTransport } : {}), ...secrets },
    {
      concurrency: deps.config.deliveryConcurrency,
      claimBatch: 200,
      idlePollMs: 250,
    },
  );
  // The sandbox's open@, click@ and unsubscribe@ act on what the sandbox mailbox received.
  const triggers = deps.config.sandbox ? local.startTriggers(secrets) : null;
  return {
    worker,
    async stop() {
      await triggers?.stop();
      const deadline = performance.now() + STOP_TIMEOUT_MS;
      await worker.stop(STOP_TIMEOUT_MS);
      // A session stuck mid-DATA may take its full timeout to close; stop waiting at the deadline.
      // What was in flight keeps its lease and is delivered again later (docs/architecture.md, "The
      // database is the queue").
      const left = Math.max(0, deadline - performance.now()) + 1000;
      await Promise.race([transport.close(), new Promise((resolve) => setTimeout(resolve, left).unref())]);
      await signer.close();
      unwatch();
    },
  };
}
