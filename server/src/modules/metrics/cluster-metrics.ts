import cluster from 'node:cluster';

/**
 * Under WORKERS=N a scrape of GET /metrics reaches one worker, but its answer must cover all of
 * them: the worker asks the primary, and the primary gathers every worker's registry with
 * prom-client's AggregatorRegistry (which asks each worker over the same IPC channel) and sends
 * the sum back. Counters and histograms add up; gauges say how they combine (metrics.ts).
 */
const REQUEST = 'ctf:metrics-request';
const ANSWER = 'ctf:metrics-answer';

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** prom-client gives up on a worker after 5 s; this waits a little longer for its answer. */
const TIMEOUT_MS = 6000;

/** In the primary, when METRICS_TOKEN is set: answers the workers' requests for every worker's metrics. */
export async function serveClusterMetrics(): Promise<void> {
  const { AggregatorRegistry } = await import('prom-client');
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== REQUEST || typeof message.id !== 'number') return;
    const id = message.id;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id, text } satisfies Answer),
      (err: unknown) =>
        worker.send({
          type: ANSWER,
          id,
          error: err instanceof Error ? err.message : String(err),
        } satisfies Answer),
    );
  });
}

let nextId = 0;
const waiting = new Map<number, { resolve(text: string): void; reject(err: Error): void }>();
let listening = false;

/** In a worker: every worker's metrics, summed by the primary. */
export function clusterMetricsText(): Promise<string> {
  if (!listening) {
    listening = true;
    process.on('message', (message: Partial<Answer>) => {
      if (message?.type !== ANSWER || typeof message.id !== 'number') return;
      const request = waiting.get(message.id);
      if (!request) return;
      waiting.delete(message.id);
      if (typeof message.text === 'string') request.resolve(message.text);
      else request.reject(new Error(message.error ?? 'no metrics'));
    });
  }
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error('The primary did not answer with the metrics'));
    }, TIMEOUT_MS);
    waiting.set(id, {
      resolve: (text) => {
        clearTimeout(timer);
        resolve(text);
      },
      reject: (err) => {
        clearTimeout(timer);
        reject(err);
      },
    });
    process.send!({ type: REQUEST, id });
  });
}
