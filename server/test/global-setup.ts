import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The server tests' run: every test database of the run is a copy of a template migrated once
 * (databases.ts), named after the run, and the run removes its templates when it ends, so a test
 * run leaves no database or file behind (another checkout's run on the same server keeps its own).
 */
export default function setup(): () => Promise<void> {
  const run = (process.env.CTF_TEST_RUN ??= randomBytes(4).toString('hex'));
  return async () => {
    for (const f of readdirSync(tmpdir())) {
      if (f.startsWith('ctf-test-template-') && f.endsWith(`_${run}.sqlite`))
        rmSync(path.join(tmpdir(), f), { force: true });
    }
    const admin = process.env.TEST_DATABASE_URL;
    if (!admin) return;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`ctf_test_template_%_${run}%`],
      );
      for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await client.end();
    }
  };
}
