import { loadStorageConfig } from '../config.js';
import { BackupError, createBackup } from './backup-archive.js';
import { exitOnRefusal, isEntryPoint } from './cli.js';

/** `npm run backup -- FILE`: one archive of the running site's data (docs/deploy.md). */
async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('Usage: npm run backup -- FILE\n');
    process.exit(2);
  }
  await exitOnRefusal(async () => {
    const storage = loadStorageConfig();
    const manifest = await createBackup(storage, file);
    process.stdout.write(
      `Backup written to ${file}: ${manifest.database === 'sqlite' ? 'the database, ' : ''}${manifest.uploads.length} upload(s).\n`,
    );
    if (manifest.database === 'postgres') {
      process.stdout.write('PostgreSQL: back the database up with pg_dump as docs/deploy.md shows.\n');
    }
  }, [BackupError]);
}

if (isEntryPoint(import.meta.url)) {
  void main();
}
