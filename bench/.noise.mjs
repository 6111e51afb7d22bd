import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
const pin = process.env.PIN;
const child = pin
  ? spawn('taskset', ['-c', pin, process.execPath, 'bench/hello-world.mjs'], {
      env: { ...process.env, PORT: '4555' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
  : spawn(process.execPath, ['bench/hello-world.mjs'], {
      env: { ...process.env, PORT: '4555' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
await new Promise((r) => child.stdout.once('data', r));
for (let i = 0; i < 8; i++) {
  const r = await autocannon({ url: 'http://127.0.0.1:4555', connections: 100, duration: 3 });
  console.log(Math.round(r.requests.average), 'p99', r.latency.p99);
}
child.kill();
