import type { Deps } from '../deps.js';
import { createAuthThrottle } from '../credentials/auth-throttle.js';
import type { SubmitPipeline } from '../send/submit.js';
import { updateSmtpTls } from '../smtp-server/client-slots.js';
import { closeSmtp, listenSmtp } from '../smtp-server/listen.js';
import { createRelayServer } from './relay-server.js';

/** The ports a relay bound (0 in config means any free port; what was actually bound is reported). */
export interface RelayPorts {
  submission: number;
  /** Null when POSTHORN_SMTPS_PORT is 0. */
  smtps: number | null;
}

/**
 * The `smtp` role: the relay on POSTHORN_SMTP_PORT (STARTTLS) and POSTHORN_SMTPS_PORT (implicit
 * TLS, RFC 8314), both feeding the same submit pipeline as the HTTP API, with one AUTH throttle.
 */
export async function startRelay(
  deps: Deps,
  pipeline: SubmitPipeline,
  tls: { cert: string; key: string },
): Promise<{ ports: RelayPorts; stop(): Promise<void>; updateTls(pair: { cert: string; key: string }): void }> {
  const throttle = createAuthThrottle();
  const submission = createRelayServer(deps, pipeline, throttle, { implicitTls: false, tls });
  const smtps =
    deps.config.smtpsPort === 0 ? null : createRelayServer(deps, pipeline, throttle, { implicitTls: true, tls });
  const ports: RelayPorts = {
    submission: await listenSmtp(submission, deps.config.listenHost, deps.config.smtpPort),
    smtps: smtps ? await listenSmtp(smtps, deps.config.listenHost, deps.config.smtpsPort) : null,
  };
  deps.log.info({ host: deps.config.listenHost, ...ports }, 'smtp relay listening');
  const unwatch = deps.metrics.onScrape(() =>
    deps.metrics.smtpSessionsOpen.set(
      { server: 'relay' },
      submission.connections.size + (smtps ? smtps.connections.size : 0),
    ),
  );
  return {
    ports,
    // A renewed certificate (src/http/tls-reload.ts) for new connections on both ports.
    updateTls(pair) {
      updateSmtpTls(submission, pair);
      if (smtps) updateSmtpTls(smtps, pair);
    },
    async stop() {
      unwatch();
      await Promise.all([closeSmtp(submission), ...(smtps ? [closeSmtp(smtps)] : [])]);
      await pipeline.drain();
    },
  };
}
