import { MESSAGES } from '@ctf/contract';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, TEST_SECRET, type TestApp } from '../../test/build-test-app.js';
import { addChallenge, openSite } from '../../test/compete.js';
import { buildApp } from '../app.js';
import { loadConfig, loadStorageConfig } from '../config.js';
import { makeZip } from '../lib/zip.js';
import { saveUpload } from '../modules/files/files.service.js';
import { BackupError, createBackup, restoreBackup } from './backup-archive.js';

// Backup and restore of a SQLite site (PostgreSQL's database is pg_dump's: docs/deploy.md).
describe('backup and restore (SQLite)', () => {
  let t: TestApp;
  let scratch: string;
  beforeEach(async () => {
    t = await buildTestApp('sqlite');
    scratch = mkdtempSync(path.join(tmpdir(), 'ctf-backup-'));
  });
  afterEach(async () => {
    await t.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const storageOf = (dataDir: string) => loadStorageConfig({ DATA_DIR: dataDir });

  it('keeps every solve acknowledged before the backup while writes go on, and restores into an empty folder', async () => {
    await openSite(t);
    const zip = makeZip([{ name: 'notes.txt', content: 'look here' }]);
    await saveUpload(t.ctx, {
      filename: 'kit.zip',
      mimetype: 'application/zip',
      stream: Readable.from([zip]),
      truncated: () => false,
    });
    const challenges = [];
    for (let i = 0; i < 4; i++) challenges.push(await addChallenge(t, { files: i === 0 ? ['kit.zip'] : [] }));
    const players = [];
    for (let i = 0; i < 12; i++) players.push(await t.login(`p${i}`));

    // Write load: every player submits every flag, one after another, until all are in.
    const acknowledged: { user: number; challenge: number; at: number }[] = [];
    let step = 0;
    const load = (async () => {
      for (const c of challenges) {
        for (const p of players) {
          const res = await p.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag });
          if (res.body.message === MESSAGES.correctFlag) {
            acknowledged.push({ user: p.user!.id, challenge: c.id, at: ++step });
          }
        }
      }
    })();
    // The backup starts once some solves are in, and runs while the rest arrive.
    while (acknowledged.length < 10) await new Promise((r) => setImmediate(r));
    const before = acknowledged.length;
    const file = path.join(scratch, 'site.ctfbackup.zip');
    const manifest = await createBackup(storageOf(t.database.dataDir), file);
    await load;
    expect(manifest).toMatchObject({ format: 'ctf-backup', database: 'sqlite' });
    expect(manifest.migrations).toContain('0008_a_challenge_authoring');
    expect(manifest.uploads.map((u) => u.name)).toEqual(['kit.zip']);

    const target = path.join(scratch, 'restored');
    await restoreBackup(storageOf(target), file);
    // Consistent: an intact database file.
    const copy = new Database(path.join(target, 'ctf.sqlite'), { readonly: true });
    expect(copy.prepare('pragma integrity_check').get()).toEqual({ integrity_check: 'ok' });
    const rows = copy.prepare('select user_id, challenge_id from solves').all() as {
      user_id: number;
      challenge_id: number;
    }[];
    copy.close();
    const stored = new Set(rows.map((r) => `${r.user_id}:${r.challenge_id}`));
    for (const a of acknowledged.slice(0, before)) expect(stored.has(`${a.user}:${a.challenge}`)).toBe(true);
    // Nothing that was never acknowledged.
    const all = new Set(acknowledged.map((a) => `${a.user}:${a.challenge}`));
    for (const key of stored) expect(all.has(key)).toBe(true);
    expect(readFileSync(path.join(target, 'uploads', 'kit.zip'))).toEqual(zip);

    // The restored site runs: its list and the file are served.
    const config = loadConfig({
      DATA_DIR: target,
      PUBLIC_URL: TEST_ORIGIN,
      SESSION_SECRET: TEST_SECRET,
      LOG_LEVEL: 'silent',
    });
    const restored = await buildApp(config, { logger: false });
    try {
      const list = await restored.app.inject({ method: 'GET', url: '/api/ctf/challenges' });
      expect(JSON.parse(list.body)).toHaveLength(4);
      const board = await restored.app.inject({ method: 'GET', url: '/api/info/leaderboard' });
      expect(JSON.parse(board.body).length).toBeGreaterThanOrEqual(
        Math.min(before, players.length) > 0 ? 1 : 0,
      );
    } finally {
      await restored.app.close();
    }
  });

  it('refuses a folder that is not empty unless forced', async () => {
    const file = path.join(scratch, 'b.zip');
    await createBackup(storageOf(t.database.dataDir), file);
    const target = path.join(scratch, 'busy');
    await restoreBackup(storageOf(target), file);
    await expect(restoreBackup(storageOf(target), file)).rejects.toThrow(/not empty.*--force/);
    await expect(restoreBackup(storageOf(target), file, { force: true })).resolves.toMatchObject({
      database: 'sqlite',
    });
  });

  it('refuses an archive with a path outside the upload folder, or no manifest, changing nothing', async () => {
    const manifest = {
      format: 'ctf-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      database: 'sqlite',
      migrations: [],
      uploads: [],
    };
    const evil = path.join(scratch, 'evil.zip');
    writeFileSync(
      evil,
      makeZip([
        { name: 'manifest.json', content: JSON.stringify(manifest) },
        { name: 'uploads/../../escape.txt', content: 'x' },
      ]),
    );
    const target = path.join(scratch, 'victim');
    await expect(restoreBackup(storageOf(target), evil)).rejects.toBeInstanceOf(BackupError);
    const bare = path.join(scratch, 'bare.zip');
    writeFileSync(bare, makeZip([{ name: 'hello.txt', content: 'x' }]));
    await expect(restoreBackup(storageOf(target), bare)).rejects.toThrow(/no manifest/);
    const newer = path.join(scratch, 'newer.zip');
    writeFileSync(
      newer,
      makeZip([
        { name: 'manifest.json', content: JSON.stringify({ ...manifest, migrations: ['9999_future'] }) },
      ]),
    );
    await expect(restoreBackup(storageOf(target), newer)).rejects.toThrow(/newer version/);
    expect(() => readFileSync(path.join(scratch, 'escape.txt'))).toThrow();
    expect(() => readFileSync(path.join(target, 'ctf.sqlite'))).toThrow();
  });
});
