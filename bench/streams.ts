import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What the stream client process answers (streams-client.mjs). */
export type StreamsAnswer =
  | { type: 'ready' }
  | { type: 'opened'; open: number; statuses: Record<string, number>; ms: number }
  | { type: 'announced'; status: number; postMs: number; expected: number; received: number; ms: number }
  | { type: 'stats'; open: number; bytes: number; closedByServer: number }
  | { type: 'closed' }
  | { type: 'error'; message: string };

/**
 * The stream leg's browsers in a process of their own (issue 15): 2,000 open live event streams
 * whose events would otherwise be read by the runner's event loop, which drives the load. One
 * request at a time, each bounded in time.
 */
export class StreamsClient {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<StreamsClient> {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./streams-client.mjs', import.meta.url))], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const client = new StreamsClient(child);
    await client.next(10_000);
    return client;
  }

  private next(timeoutMs: number): Promise<StreamsAnswer> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`stream client: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const onMessage = (m: StreamsAnswer) => {
        cleanup();
        if (m.type === 'error') reject(new Error(`stream client: ${m.message}`));
        else resolve(m);
      };
      const onExit = () => {
        cleanup();
        reject(new Error('stream client exited'));
      };
      const cleanup = () => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
    });
  }

  private async ask<T extends StreamsAnswer['type']>(
    message: Record<string, unknown> & { type: string },
    expect: T,
    timeoutMs: number,
  ): Promise<Extract<StreamsAnswer, { type: T }>> {
    const answer = this.next(timeoutMs);
    this.child.send(message);
    const m = await answer;
    if (m.type !== expect) throw new Error(`stream client answered ${m.type} to ${message.type}`);
    return m as Extract<StreamsAnswer, { type: T }>;
  }

  open(url: string, count: number, deadlineMs: number) {
    return this.ask({ type: 'open', url, count, deadlineMs }, 'opened', deadlineMs + 30_000);
  }

  /** Posts an announcement to `url` as the admin (origin: the server's PUBLIC_URL) and times it. */
  announce(url: string, origin: string, cookie: string, title: string, deadlineMs: number) {
    return this.ask(
      { type: 'announce', url, origin, cookie, title, deadlineMs },
      'announced',
      deadlineMs + 30_000,
    );
  }

  stats() {
    return this.ask({ type: 'stats' }, 'stats', 10_000);
  }

  /** Closes every stream and ends the process (killed if it does not end by itself). */
  async close(): Promise<void> {
    try {
      if (this.child.connected) await this.ask({ type: 'close' }, 'closed', 10_000);
    } finally {
      if (this.child.exitCode === null) {
        const exited = new Promise((r) => this.child.once('exit', r));
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (this.child.exitCode === null) this.child.kill('SIGKILL');
      }
    }
  }
}
