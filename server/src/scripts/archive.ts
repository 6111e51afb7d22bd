import { ArchiveRefusal, writeArchiveTo } from '../modules/event-archive/event-archive.service.js';
import { exitOnRefusal, isEntryPoint, withApp } from './cli.js';

/** `npm run archive -- DIR`: the event as a static site in a new or empty folder (docs/deploy.md). */
async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir || process.argv.length > 3) {
    process.stderr.write('Usage: npm run archive -- DIR\n');
    process.exit(2);
  }
  await exitOnRefusal(async () => {
    const started = Date.now();
    const s = await withApp((ctx) => writeArchiveTo(ctx, dir));
    process.stdout.write(
      `Archive written to ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${s.pages} page(s) ` +
        `(${s.challenges} challenge(s), ${s.competitors} competitor(s) on the board), ${s.files} file(s), ` +
        `${s.writeups} published writeup(s). ` +
        `Open ${dir}/index.html, or put the folder on any static host.\n`,
    );
  }, [ArchiveRefusal]);
}

if (isEntryPoint(import.meta.url)) {
  void main();
}
