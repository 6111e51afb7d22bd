import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the write-ahead log is copied into the database file, off the event loop. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * The worker: its own connection to the file, a PASSIVE checkpoint at each interval (it never
 * blocks the server's writes or reads), and a last one when told to stop.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 1000');
// It only copies pages from the log into the file: a small page cache is enough.
db.pragma('cache_size = -512');
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

export interface Checkpointer {
  /** Ends the worker after a last checkpoint, its connection closed (before the server's own). */
  stop(): Promise<void>;
}

/**
 * Checkpoints a SQLite file in WAL mode from a worker thread. SQLite's own checkpoints run inside
 * the commit that fills the log past its limit, on the event loop: copying the pages and the
 * fsync held every request (half of a wrong flag's log write, and stalls of tens of ms at the
 * p99; bench/NOTES.md, the fourth round). The caller turns its automatic checkpoints off once the
 * worker is ready, and `onFailure` (the worker could not start or died) turns them back on, so the
 * log never grows without bound.
 */
export async function startCheckpointer(
  file: string,
  onFailure: () => void,
  intervalMs = CHECKPOINT_INTERVAL_MS,
): Promise<Checkpointer> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, intervalMs },
    // A timer and one statement: the smallest heap V8 allows (a worker's isolate is memory of
    // the server process).
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8, codeRangeSizeMb: 2 },
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!stopping) onFailure();
      resolve();
    }),
  );
  // An error ends the worker ('exit' follows), which the exit handler reports.
  worker.on('error', () => {});
  await new Promise<void>((resolve) => {
    worker.once('message', () => resolve());
    void exited.then(() => resolve());
  });
  // A server that forgets to stop it is not kept alive by it.
  worker.unref();
  return {
    stop: async () => {
      stopping = true;
      // Held again while it finishes: with nothing else to do the process would exit mid-way.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
