import { Worker } from 'node:worker_threads';
import { SQLITE_DRIVER_PATH } from './sqlite-driver.js';

/** How often the checkpointer looks at the WAL. */
const INTERVAL_MS = 250;
/** Bytes the WAL file is cut back to once a writer starts it over (the `journal_size_limit` pragma). */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;
/** SQLite's default automatic checkpoint, put back if the checkpointer stops. */
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * The worker's code, run as a CommonJS script (`eval`): a second connection to the same file that
 * copies WAL pages into the database file with PASSIVE checkpoints, which wait for no reader or
 * writer (https://www.sqlite.org/pragma.html#pragma_wal_checkpoint), so the server's connection is
 * never made to wait for it either.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
let stopped = false;
const tick = () => {
  if (stopped) return;
  const [r] = db.pragma('wal_checkpoint(PASSIVE)');
  if (r && r.log > 0) parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed });
  setTimeout(tick, workerData.intervalMs);
};
parentPort.on('message', (m) => {
  if (m === 'stop') {
    stopped = true;
    db.close();
    parentPort.close();
  }
});
tick();
`;

/** A running background checkpointer. */
export interface WalCheckpointer {
  /** The last WAL size the checkpointer saw, in pages, and how many of them were in the database file. */
  lastSeen(): { log: number; checkpointed: number } | null;
  stop(): Promise<void>;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop. better-sqlite3 is synchronous, and SQLite runs
 * its automatic checkpoint inside the commit that crosses the threshold: after a 9 MiB message is
 * stored, that commit also copies megabytes of WAL into the database file and syncs it, with every
 * HTTP request, SMTP session and webhook of the process waiting (docs/security.md, "Connections and
 * memory"). Here the server's connections (`setPragma` sets both, with a writer thread) have automatic checkpoints off (`wal_autocheckpoint = 0`)
 * and a worker thread with its own connection checkpoints instead. Durability is unchanged: a
 * commit is durable once its WAL frames are synced (`synchronous = FULL`), checkpointed or not.
 * If the worker fails, the connection gets its automatic checkpoints back, so the WAL never grows
 * without end.
 */
export function startWalCheckpointer(
  setPragma: (text: string) => void,
  isOpen: () => boolean,
  file: string,
): WalCheckpointer {
  const driver = SQLITE_DRIVER_PATH;
  setPragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  setPragma('wal_autocheckpoint = 0');
  let last: { log: number; checkpointed: number } | null = null;
  let stopping = false;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs: INTERVAL_MS } });
  // The server exits when its roles stop, whether or not this thread is still waiting for its next look.
  worker.unref();
  worker.on('message', (m: { log: number; checkpointed: number }) => {
    last = m;
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const fallBack = (): void => {
    if (!stopping && isOpen()) setPragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  return {
    lastSeen: () => last,
    async stop() {
      if (stopping) return exited;
      stopping = true;
      worker.ref(); // keep the process up until the worker has closed its connection
      worker.postMessage('stop');
      await exited;
    },
  };
}
