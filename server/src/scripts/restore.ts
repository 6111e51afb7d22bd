import { ConfigError, loadStorageConfig } from '../config.js';
import { BackupError, restoreBackup } from './backup-archive.js';

/** `npm run restore -- FILE [--force]`: fills an empty DATA_DIR from a backup (docs/deploy.md). */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const file = args.find((a) => a !== '--force');
  if (!file) {
    process.stderr.write('Usage: npm run restore -- FILE [--force]\n');
    process.exit(2);
  }
  try {
    const storage = loadStorageConfig();
    const manifest = await restoreBackup(storage, file, { force });
    process.stdout.write(
      `Restored ${manifest.database === 'sqlite' ? 'the database and ' : ''}${manifest.uploads.length} upload(s) from the backup of ${manifest.createdAt}.\n`,
    );
    if (manifest.database === 'postgres') {
      process.stdout.write('PostgreSQL: restore the database with pg_restore as docs/deploy.md shows.\n');
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof BackupError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  void main();
}
