import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGES } from '@ctf/contract';
import { makeZip } from '../../server/src/lib/zip.js';
import { HttpClient } from './http.js';
import { startServer, type RunningServer } from './server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Loads the built demo challenges (server/dist/scripts/seed-demo.js: one per category, with ZIP
 * files) into DATA_DIR and opens the site; with `event`, also the event under way that the pages
 * are measured on (`npm run seed:demo -- --event`). Run it before the server starts on that
 * DATA_DIR, as `npm run seed:demo` does.
 */
export function seedDemoChallenges(dataDir: string, options: { event?: boolean } = {}): string {
  const script = path.join(root, 'server/dist/scripts/seed-demo.js');
  const r = spawnSync(process.execPath, [script, ...(options.event ? ['--event'] : [])], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`seed-demo failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

const SAMPLE_FILE = 'view-source.zip';

/** A few challenges made through the admin API (for a server that is already running). */
export const SAMPLE_CHALLENGES = [
  ['Welcome Aboard', 'General', 'Simple', '<p>The flag is <code>flag{welcome}</code>.</p>'],
  ['Caesar Salad', 'Cryptography', 'Easy', '<p>Julius left a note: <code>synt{ebgngr}</code>.</p>'],
  ['View Source', 'Web Exploitation', 'Easy', '<p>Web developers leave comments everywhere.</p>'],
  ['Strings Attached', 'Reverse Engineering', 'Medium', '<p>You do not need to run it.</p>'],
  ['Hidden Layers', 'Forensics', 'Medium', '<p>A base64 line does not belong in the log.</p>'],
  ['First Letters', 'Steganography', 'Hard', '<p>Read the first letter of each line.</p>'],
  ['Overflowing Cup', 'Binary Exploitation', 'Extreme', '<p>A 16-byte buffer and <code>gets</code>.</p>'],
].map(([name, category, difficulty, description], i) => ({
  name: name!,
  category: category!,
  difficulty: difficulty!,
  description: description!,
  written_by: i % 3 === 2 ? 'Guest Author' : 'CTF Team',
  flag: `flag{sample_${i}}`,
  files: i === 2 ? [SAMPLE_FILE] : ([] as string[]),
}));

export interface DemoEvent {
  admin: HttpClient;
  /** Challenge ids by name. */
  ids: Map<string, string>;
  /** The challenges in the admin list's order, with their flags (solves below refer to this order). */
  challenges: { _id: string; name: string; flag: string }[];
  /** The challenge left disabled (shown dimmed, out of order). */
  inactive: string;
  users: {
    /** Leader of 'Packet Pirates' (bob and carol are members; dave's join request waits). */
    leader: string;
    member: string;
    /** On no team, with a solve and a rating. */
    solo: string;
    admin: string;
  };
}

export async function createSampleChallenges(admin: HttpClient, base: string): Promise<void> {
  const form = new FormData();
  const zip = makeZip([{ name: 'index.html', content: '<html><!-- flag{sample_2} --></html>' }]);
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), SAMPLE_FILE);
  const up = await fetch(`${base}/api/admin/ctf/upload`, {
    method: 'POST',
    body: form,
    headers: { origin: admin.origin, cookie: admin.cookie },
  });
  if (!up.ok) throw new Error(`upload failed: ${up.status} ${await up.text()}`);
  for (const c of SAMPLE_CHALLENGES) {
    const r = await admin.post(base, '/api/admin/ctf/create_challenge', c);
    if (r.status !== 200 || r.body?.acknowledge !== true) throw new Error(`create failed: ${r.text}`);
  }
}

/**
 * Fills a running server with a small, realistic event through the public API: two teams (one
 * with a pending join request), players on no team, solves, ratings and one disabled challenge.
 * The challenges must exist already (seedDemoChallenges, or createSampleChallenges); every flag
 * is read from the admin list.
 */
export async function populateEvent(server: RunningServer): Promise<DemoEvent> {
  const base = server.url;
  const admin = await new HttpClient(base).signIn(base, 'admin', true);
  const expectOk = async (p: Promise<{ status: number; text: string }>, what: string) => {
    const r = await p;
    if (r.status !== 200) throw new Error(`${what} answered ${r.status}: ${r.text}`);
    return r;
  };
  await expectOk(admin.post(base, '/api/admin/update_site_info', { activated: true }), 'open the site');
  const listed = (await admin.get(base, '/api/admin/ctf/fetch_challenges')).body as {
    _id: string;
    name: string;
    flag: string;
  }[];
  if (listed.length < 6) throw new Error('populateEvent needs at least 6 challenges');
  const ids = new Map(listed.map((c) => [c.name, c._id]));
  const people = new Map<string, HttpClient>();
  const person = async (name: string) => {
    const client = await new HttpClient(base).signIn(base, name);
    people.set(name, client);
    return client;
  };
  const solve = async (who: HttpClient, index: number) => {
    const c = listed[index]!;
    const r = await who.post(base, '/api/ctf/submit-flag', { flag: c.flag, challenge_id: c._id });
    if (r.body?.message !== MESSAGES.correctFlag) throw new Error(`solve failed: ${r.text}`);
  };
  const rate = (who: HttpClient, index: number, rating: number) =>
    expectOk(who.post(base, '/api/ctf/rate-challenge', { challenge_id: listed[index]!._id, rating }), 'rate');
  const team = async (leaderName: string, teamName: string, members: string[], pending: string[] = []) => {
    const leader = await person(leaderName);
    await expectOk(leader.post(base, '/api/team/create', { team_name: teamName }), 'create team');
    for (const name of [...members, ...pending]) {
      const p = await person(name);
      await expectOk(p.post(base, '/api/team/request', { team_name: teamName }), 'join request');
    }
    const info = (await leader.get(base, '/api/team/info')).body as {
      join_requests: { _id: string; checksum: string; sender_name: string }[];
    };
    for (const r of info.join_requests.filter((j) => members.includes(j.sender_name))) {
      await expectOk(
        leader.post(base, '/api/team/add-member', { request_id: r._id, checksum: r.checksum }),
        'accept',
      );
    }
  };

  await team('alice', 'Packet Pirates', ['bob', 'carol'], ['dave']);
  await team('frank', 'Null Pointers', ['grace']);
  const [alice, bob, carol, frank, grace] = ['alice', 'bob', 'carol', 'frank', 'grace'].map((n) =>
    people.get(n)!,
  );
  const erin = await person('erin');
  const heidi = await person('heidi');

  await solve(alice!, 0);
  await solve(alice!, 1);
  await solve(bob!, 2);
  await solve(bob!, 0);
  await solve(carol!, 3);
  await solve(frank!, 0);
  await solve(frank!, 1);
  await solve(grace!, 4);
  await solve(grace!, 5);
  await solve(erin, 0);
  await solve(heidi, 0);
  await solve(heidi, 2);
  await rate(alice!, 0, 5);
  await rate(frank!, 0, 4);
  await rate(frank!, 1, 3);
  await rate(erin, 0, 4);
  await rate(grace!, 4, 5);

  const inactive = listed[listed.length - 1]!;
  await expectOk(admin.post(base, '/api/admin/ctf/toggle_status', { challenge_id: inactive._id }), 'disable');
  return {
    admin,
    ids,
    challenges: listed,
    inactive: inactive.name,
    users: { leader: 'alice', member: 'bob', solo: 'erin', admin: 'admin' },
  };
}

/**
 * The built server on a fresh DATA_DIR with the demo challenges (`npm run seed:demo`) and a
 * populated event, as the screenshot and Lighthouse scripts show it; with `event`, inside the
 * large event under way of `npm run seed:demo -- --event` (the Lighthouse script's). stop()
 * removes the data.
 */
export async function startDemoServer(
  env: Record<string, string> = {},
  options: { event?: boolean } = {},
): Promise<{ server: RunningServer; event: DemoEvent; seeded: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-demo-'));
  // What the seed said it made (one line each).
  const seeded = seedDemoChallenges(dataDir, options);
  const server = await startServer({ ...env, DATA_DIR: dataDir });
  try {
    const event = await populateEvent(server);
    return {
      server,
      event,
      seeded,
      async stop() {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
