import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from './server.js';

function has(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
}

/** A private Redis on its own port (never the machine's shared one), so a test may stop it. */
export class PrivateRedis {
  port = 0;
  private child: ChildProcess | null = null;
  static available(): boolean {
    return has('redis-server');
  }
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(port?: number): Promise<void> {
    this.port = port ?? this.port ?? (await freePort());
    if (!this.port) this.port = await freePort();
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      if (spawnSync('redis-cli', ['-p', String(this.port), 'ping']).stdout?.toString().includes('PONG')) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('private redis did not start');
  }
  async stop(): Promise<void> {
    if (!this.child) return;
    const exited = new Promise((r) => this.child!.once('exit', r));
    this.child.kill('SIGKILL');
    await exited;
    this.child = null;
  }
}

/** A fresh PostgreSQL database on TEST_DATABASE_URL's server, dropped afterwards. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL!;
  const name = `ctf_mp_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

export function nginxAvailable(): boolean {
  return has('nginx');
}

/** nginx in front of the given upstream ports, as a club would deploy it. */
export class Nginx {
  port = 0;
  private dir = '';
  private child: ChildProcess | null = null;
  async start(upstreamPorts: number[], port?: number): Promise<void> {
    this.port = port ?? (await freePort());
    this.dir = mkdtempSync(path.join(tmpdir(), 'ctf-nginx-'));
    mkdirSync(path.join(this.dir, 'logs'));
    const conf = `
worker_processes 1;
pid ${this.dir}/nginx.pid;
error_log ${this.dir}/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${this.dir}/body;
  proxy_temp_path ${this.dir}/proxy;
  fastcgi_temp_path ${this.dir}/fastcgi;
  uwsgi_temp_path ${this.dir}/uwsgi;
  scgi_temp_path ${this.dir}/scgi;
  upstream ctf { ${upstreamPorts.map((p) => `server 127.0.0.1:${p};`).join(' ')} }
  server {
    listen 127.0.0.1:${this.port};
    client_max_body_size 100m;
    location / {
      proxy_pass http://ctf;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}`;
    writeFileSync(path.join(this.dir, 'nginx.conf'), conf);
    this.child = spawn('nginx', ['-p', this.dir, '-c', path.join(this.dir, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(`http://127.0.0.1:${this.port}/api/health`);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error('nginx did not start');
  }
  async stop(): Promise<void> {
    if (this.child) {
      const exited = new Promise((r) => this.child!.once('exit', r));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
