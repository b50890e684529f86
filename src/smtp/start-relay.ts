import type { Deps } from '../deps.js';
import { createAuthThrottle } from '../credentials/auth-throttle.js';
import type { SubmitPipeline } from '../send/submit.js';
import { createRelayServer } from './relay-server.js';

/** The ports a relay bound (0 in config means any free port; what was actually bound is reported). */
export interface RelayPorts {
  submission: number;
  /** Null when POSTHORN_SMTPS_PORT is 0. */
  smtps: number | null;
}

function listen(server: ReturnType<typeof createRelayServer>, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.server.address() as { port: number }).port);
    });
  });
}

/**
 * The `smtp` role: the relay on POSTHORN_SMTP_PORT (STARTTLS) and POSTHORN_SMTPS_PORT (implicit
 * TLS, RFC 8314), both feeding the same submit pipeline as the HTTP API, with one AUTH throttle.
 */
export async function startRelay(
  deps: Deps,
  pipeline: SubmitPipeline,
  tls: { cert: string; key: string },
): Promise<{ ports: RelayPorts; stop(): Promise<void> }> {
  const throttle = createAuthThrottle();
  const submission = createRelayServer(deps, pipeline, throttle, { implicitTls: false, tls });
  const smtps =
    deps.config.smtpsPort === 0 ? null : createRelayServer(deps, pipeline, throttle, { implicitTls: true, tls });
  const ports: RelayPorts = {
    submission: await listen(submission, deps.config.listenHost, deps.config.smtpPort),
    smtps: smtps ? await listen(smtps, deps.config.listenHost, deps.config.smtpsPort) : null,
  };
  deps.log.info({ host: deps.config.listenHost, ...ports }, 'smtp relay listening');
  const close = (s: ReturnType<typeof createRelayServer>) => new Promise<void>((resolve) => s.close(() => resolve()));
  return {
    ports,
    async stop() {
      await Promise.all([close(submission), ...(smtps ? [close(smtps)] : [])]);
      await pipeline.drain();
    },
  };
}
