import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { connectionPragmas } from './sqlite-dialect.js';

/** How often the write-ahead log is copied into the database file, off the event loop. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * The worker: its own connection to the file, a PASSIVE checkpoint at each interval (it never
 * blocks the server's writes or reads), the write statements it is sent, each in its own
 * transaction and answered once committed, and a last checkpoint when told to stop. Its connection
 * is set up as the server's (connectionPragmas: synchronous, foreign keys, busy timeout, page
 * cache), so what it writes is as durable and as checked as the server's own writes.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
for (const pragma of workerData.pragmas) db.pragma(pragma);
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
// Its writers send a few fixed statement texts: each is prepared once.
const statements = new Map();
const prepared = (text) => {
  let statement = statements.get(text);
  if (!statement) {
    if (statements.size >= 16) statements.clear();
    statements.set(text, (statement = db.prepare(text)));
  }
  return statement;
};
parentPort.on('message', (message) => {
  if (message === 'stop') {
    clearInterval(timer);
    checkpoint();
    db.close();
    parentPort.close();
    return;
  }
  try {
    prepared(message.text).run(...message.params);
    parentPort.postMessage({ id: message.id });
  } catch (err) {
    parentPort.postMessage({ id: message.id, error: String((err && err.message) || err) });
  }
});
parentPort.postMessage('ready');
`;

export interface SqliteWorker {
  /** Whether the worker runs: false once it could not start or ended. */
  readonly running: boolean;
  /**
   * Runs one write statement on the worker's connection (its own transaction) and resolves once
   * it is committed; rejects with the database's message when it fails, or when the worker ends
   * first (whether it was committed is then unknown).
   */
  write(text: string, params: readonly unknown[]): Promise<void>;
  /** Ends the worker after what it was sent and a last checkpoint (before the server's own close). */
  stop(): Promise<void>;
}

/**
 * A worker thread beside the server's connection to a SQLite file in WAL mode:
 * - it checkpoints. SQLite's own checkpoints run inside the commit that fills the log past its
 *   limit, on the event loop: copying the pages and the fsync held every request (half of a wrong
 *   flag's log write, and stalls of tens of ms at the p99; bench/NOTES.md, the fourth round). The
 *   caller turns its automatic checkpoints off once the worker is ready, and `onFailure` (the
 *   worker could not start or died) turns them back on, so the log never grows without bound;
 * - it runs bulk writes that nothing waits for on the request path (the submission log's batches,
 *   thousands of index entries each), so they take a second core instead of holding every request.
 *   SQLite lets one writer at a time: a server write that meets one of them waits for its
 *   transaction on a timer, as it does for another process's (ServerSqliteDialect).
 */
export async function startSqliteWorker(
  file: string,
  synchronous: string,
  onFailure: () => void,
  intervalMs = CHECKPOINT_INTERVAL_MS,
): Promise<SqliteWorker> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, intervalMs, pragmas: connectionPragmas(synchronous) },
    // A timer and a few statements: the smallest heap V8 allows (a worker's isolate is memory of
    // the server process).
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8, codeRangeSizeMb: 2 },
  });
  let running = true;
  let stopping = false;
  let nextId = 0;
  const waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      running = false;
      for (const w of waiting.values()) w.reject(new Error('the SQLite worker ended before answering'));
      waiting.clear();
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
  worker.on('message', (message: { id: number; error?: string }) => {
    const w = waiting.get(message.id);
    if (!w) return;
    waiting.delete(message.id);
    if (message.error === undefined) w.resolve();
    else w.reject(new Error(message.error));
    // Nothing in flight: the worker no longer keeps the process alive.
    if (waiting.size === 0 && !stopping) worker.unref();
  });
  // A server that forgets to stop it is not kept alive by it.
  worker.unref();
  return {
    get running() {
      return running;
    },
    write: (text, params) => {
      if (!running) return Promise.reject(new Error('the SQLite worker is not running'));
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        // Held while a write is in flight: its answer must arrive.
        worker.ref();
        worker.postMessage({ id, text, params });
      });
    },
    stop: async () => {
      stopping = true;
      // Held again while it finishes: with nothing else to do the process would exit mid-way.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
