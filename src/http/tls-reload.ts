import { unwatchFile, watchFile, type Stats } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { systemClock, type Clock } from '../core/clock.js';
import { readOperatorFiles, type TlsMaterial } from './tls.js';

/** A certificate and key as the listeners take them. */
export interface TlsPair {
  cert: string;
  key: string;
}

/** The TLS material in service, and a way to hear of its renewal. */
export interface TlsSource {
  current(): TlsMaterial;
  /** Calls `fn` with each new pair once it has been read and checked; returns the unsubscribe. */
  subscribe(fn: (pair: TlsPair) => void): () => void;
  /** Reads the files again now (SIGHUP does this); resolves true when a new pair went into service. */
  reload(): Promise<boolean>;
  stop(): void;
}

/** How often the files are looked at when no SIGHUP comes: renewals are rare, a minute is prompt. */
export const TLS_POLL_MS = 60_000;

/**
 * Keeps the operator's certificate current without a restart (docs/deploy.md, "TLS certificates"):
 * on SIGHUP and whenever POSTHORN_TLS_CERT or POSTHORN_TLS_KEY changes on disk, the pair is read
 * and checked again exactly as at start; a good new pair goes to every subscriber (the HTTPS
 * server, the relay, the inbound MX), which serve it on new connections. A pair that cannot be
 * read or does not match (a renewal caught half-copied) is logged and the old one stays in
 * service; the next change of either file tries again. Posthorn's own self-signed certificate is
 * static: it is renewed at start.
 */
export function watchTls(
  config: Pick<Config, 'tlsCert' | 'tlsKey'>,
  initial: TlsMaterial,
  log: Pick<Logger, 'info' | 'warn' | 'error'>,
  opts: { pollMs?: number; signals?: boolean; clock?: Clock } = {},
): TlsSource {
  const clock = opts.clock ?? systemClock;
  let material = initial;
  const subscribers = new Set<(pair: TlsPair) => void>();
  const certPath = config.tlsCert;
  const keyPath = config.tlsKey;
  let running: Promise<boolean> | null = null;
  let again = false;

  const readOnce = async (): Promise<boolean> => {
    if (certPath === null || keyPath === null) return false;
    let next: TlsMaterial;
    try {
      next = await readOperatorFiles(certPath, keyPath, log, clock);
    } catch (err) {
      log.error(
        { err: (err as Error).message, certPath, keyPath },
        'TLS renewal refused: the certificate in service stays',
      );
      return false;
    }
    if (next.cert === material.cert && next.key === material.key) return false;
    material = next;
    for (const fn of subscribers) fn({ cert: next.cert, key: next.key });
    log.info({ certPath }, 'TLS certificate reloaded: new connections get the new one');
    return true;
  };
  // One read at a time; a change seen during a read is read again after it.
  const reload = (): Promise<boolean> => {
    if (running) {
      again = true;
      return running;
    }
    running = readOnce().finally(() => {
      running = null;
      if (again) {
        again = false;
        void reload();
      }
    });
    return running;
  };

  const onChange = (now: Stats, before: Stats): void => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) void reload();
  };
  const operatorFiles = certPath !== null && keyPath !== null;
  // SIGHUP is handled either way: its default action would end the process on `systemctl reload`.
  const onSignal = (): void => {
    if (operatorFiles) void reload();
    else log.info('SIGHUP: nothing to reload, the self-signed certificate is renewed at start');
  };
  if (opts.signals !== false) process.on('SIGHUP', onSignal);
  if (operatorFiles) {
    // Polling (stat), not fs.watch: it follows symlinks such as certbot's live/ links and survives
    // the file being replaced by a rename.
    const pollOpts = { interval: opts.pollMs ?? TLS_POLL_MS, persistent: false };
    watchFile(certPath, pollOpts, onChange);
    watchFile(keyPath, pollOpts, onChange);
  }

  return {
    current: () => material,
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    reload,
    stop() {
      process.off('SIGHUP', onSignal);
      if (!operatorFiles) return;
      unwatchFile(certPath, onChange);
      unwatchFile(keyPath, onChange);
    },
  };
}
