import pretty from 'pino-pretty';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PRETTY_OPTIONS, terminalLogStream } from './log-stream.js';

describe('the log output', () => {
  it('is pino’s JSON when stdout is no terminal, the pretty printer when it is', async () => {
    expect(await terminalLogStream({ isTTY: false })).toBeUndefined();
    expect(await terminalLogStream({})).toBeUndefined();
    const stream = await terminalLogStream({ isTTY: true });
    expect(stream).toBeDefined();
    expect(typeof stream!.write).toBe('function');
  });

  it('reads as a line with the local ISO time, the level and the message', () => {
    let out = '';
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const stream = pretty({ ...PRETTY_OPTIONS, colorize: false, destination });
    const time = Date.parse('2026-03-02T09:41:27.123Z');
    stream.write(
      `${JSON.stringify({ level: 30, time, pid: 1, hostname: 'h', msg: 'CTF site ready at http://localhost:3000' })}\n`,
    );
    // The local time as ISO 8601 with its offset, e.g. 2026-03-02T10:41:27.123+0100.
    const d = new Date(time);
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    const local = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
    expect(out).toContain(`[${local}`);
    expect(out).toMatch(
      /\[\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{4}\] INFO: CTF site ready at http:\/\/localhost:3000/,
    );
    expect(out).not.toContain('"time"');
    expect(out).not.toContain('hostname');
  });
});
