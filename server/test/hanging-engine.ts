import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A Docker engine as a hung one looks to the site: a unix socket that accepts every connection
 * and never answers. `forwardTo(socketPath)` turns it into a pass-through to a real engine (the
 * engine came back); `hang()` makes it hang again. Connections held are counted.
 */
export class HangingEngine {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private target: string | null = null;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'ctf-hung-engine-'));
  readonly socketPath = path.join(this.dir, 'docker.sock');
  accepted = 0;

  get host(): string {
    return `unix://${this.socketPath}`;
  }

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      this.accepted += 1;
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => client.destroy());
      if (this.target === null) return; // accepted, read, never answered
      const upstream = net.connect(this.target);
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.socketPath, resolve));
  }

  forwardTo(socketPath: string): void {
    this.target = socketPath;
  }

  hang(): void {
    this.target = null;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
