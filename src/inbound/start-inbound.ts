import { updateSmtpTls } from '../smtp-server/client-slots.js';
import type { Deps } from '../deps.js';
import { returnPathSecret } from '../delivery/return-path.js';
import { processPendingReports, processReport } from '../feedback/process-report.js';
import { closeSmtp, listenSmtp } from '../smtp-server/listen.js';
import { createInboundServer } from './inbound-server.js';

/** How often the pending pass runs, and how old a pending report must be for it (younger ones are being processed after their 250). */
export const PENDING_PASS = { everyMs: 60_000, minAgeMs: 60_000 } as const;

/**
 * The `inbound` role: the inbound MX on POSTHORN_LISTEN_HOST:POSTHORN_INBOUND_PORT (0: a free
 * port, reported), each stored report processed right after its 250, and the pending pass — once
 * at start for everything a crash left, then every minute — so no accepted report is lost.
 */
export async function startInbound(
  deps: Deps,
  tls: { cert: string; key: string },
): Promise<{ port: number; stop(): Promise<void>; updateTls(pair: { cert: string; key: string }): void }> {
  const secret = await returnPathSecret(deps);
  const inflight = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>): void => {
    const settled = p
      .catch((err: unknown) => deps.log.error({ err }, 'inbound report processing failed; the pending pass retries it'))
      .finally(() => inflight.delete(settled));
    inflight.add(settled);
  };
  let passing: Promise<unknown> | null = null;
  const pass = (minAgeMs: number): void => {
    if (passing) return;
    passing = processPendingReports(deps, secret, { minAgeMs })
      .then((n) => {
        if (n > 0) deps.log.info({ processed: n }, 'pending inbound reports processed');
      })
      .catch((err: unknown) => deps.log.error({ err }, 'pending inbound report pass failed'))
      .finally(() => {
        passing = null;
      });
  };

  const server = createInboundServer(deps, { tls, secret, onStored: (id) => track(processReport(deps, id, secret)) });
  const port = await listenSmtp(server, deps.config.listenHost, deps.config.inboundPort);
  deps.log.info({ host: deps.config.listenHost, port }, 'inbound mx listening');
  pass(0);
  const unwatch = deps.metrics.onScrape(() =>
    deps.metrics.smtpSessionsOpen.set({ server: 'inbound' }, server.connections.size),
  );
  const timer = setInterval(() => pass(PENDING_PASS.minAgeMs), PENDING_PASS.everyMs);
  timer.unref();
  return {
    port,
    // A renewed certificate (src/http/tls-reload.ts) for the STARTTLS of new sessions.
    updateTls: (pair) => updateSmtpTls(server, pair),
    async stop() {
      clearInterval(timer);
      unwatch();
      await closeSmtp(server);
      await Promise.all([...inflight, passing]);
    },
  };
}
