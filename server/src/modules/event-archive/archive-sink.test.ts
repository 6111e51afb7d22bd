import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readZipArchive } from '../challenge-archive/archive-reader.js';
import { directorySink, zipSink } from './archive-sink.js';

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('archive sinks', () => {
  it('write the same entries to a folder and to a ZIP, chunk by chunk', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ctf-sink-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const entries: [string, string[]][] = [
      ['index.html', ['<p>', 'one', '</p>']],
      ['challenges/1-a.html', ['two']],
    ];
    const folder = directorySink(dir);
    const zip = zipSink();
    const bytes = collect(zip.output);
    for (const [name, chunks] of entries) {
      await folder.write(name, chunks);
      await zip.write(name, chunks);
    }
    zip.end();
    const read = await readZipArchive(await bytes, 'sink.zip');
    for (const [name, chunks] of entries) {
      expect(await readFile(path.join(dir, name), 'utf8')).toBe(chunks.join(''));
      expect(read.get(name)!.toString()).toBe(chunks.join(''));
    }
  });

  it('refuse names that leave the archive', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ctf-sink-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    for (const name of ['../x.html', '/etc/x', 'a//b', 'a/./b']) {
      await expect(directorySink(dir).write(name, ['x'])).rejects.toThrow(/refusing/);
      await expect(zipSink().write(name, ['x'])).rejects.toThrow(/refusing/);
    }
  });

  it('stop the build when the download is closed, instead of waiting for a reader for ever', async () => {
    const zip = zipSink();
    const pending = zip.write(
      'big.html',
      (function* () {
        for (let i = 0; i < 1000; i++) yield 'x'.repeat(64 * 1024);
      })(),
    );
    zip.output.destroy();
    await expect(pending).rejects.toThrow('the ZIP stream was closed');
    await expect(zip.write('next.html', ['y'])).rejects.toThrow('the ZIP stream was closed');
  });
});
