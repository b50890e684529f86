import type { ChildMetrics, FromChild, ToChild } from './supervisor.js';
import { SUPERVISED_VARIABLE } from './supervisor.js';

/** This process's name when a `serve --processes N` supervisor started it (`delivery-1`, …), else null. */
export function supervisedName(env: Readonly<Record<string, string | undefined>>): string | null {
  const name = env[SUPERVISED_VARIABLE];
  return typeof process.send === 'function' && name !== undefined && name !== '' ? name : null;
}

/** A supervised child's side of the IPC channel. */
export interface ChildChannel {
  /** Resolves when the channel closes: the supervisor stopping us, or dead (even by SIGKILL). */
  disconnected: Promise<void>;
  /** Tells the supervisor every role has started. */
  ready(): void;
  /** Stops listening and closes the channel, so it keeps the process alive no longer. */
  close(): void;
}

/**
 * Answers the supervisor (src/processes/supervisor.ts): `wake` nudges the delivery loop, `metrics`
 * sends this process's metrics back for the host's one listener. The channel is unref'd: it is
 * not what keeps a child running (the roles are), and a child ending on a signal must not wait
 * on it.
 */
export function openChildChannel(hooks: { wake(): void; metrics(): Promise<ChildMetrics> }): ChildChannel {
  const post = (m: FromChild): void => {
    if (process.connected) process.send?.(m, undefined, {}, () => {});
  };
  const onMessage = (m: ToChild): void => {
    if (m.t === 'wake') hooks.wake();
    else if (m.t === 'metrics')
      void hooks.metrics().then(
        (metrics) => post({ t: 'metrics', id: m.id, metrics }),
        () => post({ t: 'metrics', id: m.id, metrics: [] }),
      );
  };
  process.on('message', onMessage);
  process.channel?.unref();
  const disconnected = new Promise<void>((resolve) => {
    if (!process.connected) resolve();
    else process.once('disconnect', () => resolve());
  });
  return {
    disconnected,
    ready: () => post({ t: 'ready' }),
    close() {
      process.off('message', onMessage);
      if (process.connected) process.disconnect();
    },
  };
}
