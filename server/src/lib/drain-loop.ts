/**
 * Runs an outbox's `drain` off every request's path, one run at a time: on a timer (for what other
 * processes queued) and whenever kicked (after a commit here). A kick during a run asks for one
 * more run after it, so nothing queued meanwhile waits for the timer. The Discord webhook's and the
 * accounts' mail outboxes both send this way.
 */
export class DrainLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private halted = false;

  constructor(
    private readonly drain: () => Promise<void>,
    private readonly pollMs: number,
    /** A run that threw (the outbox could not be read): logged, and the next tick tries again. */
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Whether stop() was called: a drain checks it between messages. */
  get stopped(): boolean {
    return this.halted;
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Looks for due work now. */
  kick(): void {
    if (this.halted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.onError(err))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops at once (no run starts after this call) and resolves when the current run has ended. */
  async stop(): Promise<void> {
    this.halted = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
