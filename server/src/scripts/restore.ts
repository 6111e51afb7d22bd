import { loadStorageConfig } from '../config.js';
import { BackupError, restoreBackup } from './backup-archive.js';
import { exitOnRefusal, isEntryPoint } from './cli.js';

/** `npm run restore -- FILE [--force]`: fills an empty DATA_DIR from a backup (docs/deploy.md). */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const file = args.find((a) => a !== '--force');
  if (!file) {
    process.stderr.write('Usage: npm run restore -- FILE [--force]\n');
    process.exit(2);
  }
  await exitOnRefusal(async () => {
    const storage = loadStorageConfig();
    const manifest = await restoreBackup(storage, file, { force });
    process.stdout.write(
      `Restored ${manifest.database === 'sqlite' ? 'the database and ' : ''}${manifest.uploads.length} upload(s) from the backup of ${manifest.createdAt}.\n`,
    );
    if (manifest.database === 'postgres') {
      process.stdout.write('PostgreSQL: restore the database with pg_restore as docs/deploy.md shows.\n');
    }
  }, [BackupError]);
}

if (isEntryPoint(import.meta.url)) {
  void main();
}
