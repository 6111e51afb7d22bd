import { MESSAGES, type ChallengeInput, type Difficulty } from '@ctf/contract';
import { expect, onTestFinished } from 'vitest';
import { buildTestApp, type TestApp, type TestClient, type TestResponse } from './build-test-app.js';
import { addChallenge, makeTeam, openSite, type SeededChallenge } from './compete.js';
import type { TestDatabaseKind } from './databases.js';

/**
 * A started event as a test states it: who plays, on which teams, which challenges, who solved
 * what. Names are the handles: `users: ['ann', 'bob']` gives `t.users.ann`, `challenges: { easy:
 * 'Easy' }` gives `t.challenges.easy`, and a misspelt name is a type error. See server/test/README.md.
 */
export interface EventSpec<U extends string, A extends string, C extends string, T extends string> {
  /** The database (default SQLite; loop over testDatabaseKinds() to run on both). */
  kind?: TestDatabaseKind;
  /** Configuration variables, exactly as the environment would set them. */
  env?: Record<string, string>;
  /** The app's log lines go to this stream (see buildTestApp). */
  logStream?: { write(line: string): void };
  /** Whether the site is active (the event running); default true. */
  open?: boolean;
  /** Admins, logged in first, in this order; the first is `t.admin`. */
  admins?: readonly A[];
  /** Competitors, logged in after the admins in this order (user ids follow it). */
  users?: readonly U[];
  /** Team name -> its members (the first leads), written as rows as joining would leave them. */
  teams?: { readonly [name in T]: readonly NoInfer<U | A>[] };
  /**
   * Challenge handle -> a difficulty or the admin form's fields (the rest as addChallenge fills
   * them: an active challenge with a flag of its own), created in this order through the service.
   */
  challenges?: { readonly [handle in C]: Difficulty | Partial<ChallengeInput> };
  /** [user, challenge] solved through the real submit call, in this order, a minute apart. */
  solves?: readonly (readonly [NoInfer<U | A>, NoInfer<C>])[];
}

/** A TestApp with the scenario's handles and the calls most tests make on it. */
export interface StartedEvent<
  U extends string = never,
  A extends string = never,
  C extends string = never,
  T extends string = never,
> extends TestApp {
  /** The first admin of the spec (an error when it named none). */
  readonly admin: TestClient;
  /** Every named user's logged-in client, admins included. */
  users: Record<U | A, TestClient>;
  /** Team ids by name. */
  teams: Record<T, number>;
  challenges: Record<C, SeededChallenge>;
  /** A named user's id. */
  userId(name: U | A): number;
  /** Sends the flag (the challenge's own by default) through the real call, at the current time. */
  submit(who: TestClient, challenge: SeededChallenge, flag?: string): Promise<TestResponse>;
  /** Solves through the real call one minute after the previous solve; it must be correct. */
  solve(who: TestClient, challenge: SeededChallenge): Promise<void>;
  /** The public leaderboard as `who` (a visitor by default) reads it. */
  board(who?: TestClient): Promise<{ name: string; points: number }[]>;
}

/**
 * Builds the real app on a fresh database and sets the scenario up: the site opened, the admins
 * and users logged in, the teams formed, the challenges created and the solves submitted, in that
 * order. Close it with `t.close()` (afterEach) like any TestApp.
 */
export async function startedEvent<
  const U extends string = never,
  const A extends string = never,
  const C extends string = never,
  const T extends string = never,
>(spec: EventSpec<U, A, C, T> = {}): Promise<StartedEvent<U, A, C, T>> {
  const t = await buildTestApp(spec.kind, spec.env, spec.logStream ? { logStream: spec.logStream } : {});
  try {
    if (spec.open !== false) await openSite(t);
    const users = {} as Record<U | A, TestClient>;
    for (const name of spec.admins ?? []) users[name] = await t.login(name, { admin: true });
    for (const name of spec.users ?? []) users[name] = await t.login(name);
    const userId = (name: U | A) => {
      const client = users[name];
      if (!client) throw new Error(`startedEvent: no user named ${name}`);
      return client.user!.id;
    };
    const teams = {} as Record<T, number>;
    for (const [name, members] of Object.entries(spec.teams ?? {}) as [T, readonly (U | A)[]][])
      teams[name] = await makeTeam(t, name, members.map(userId));
    const challenges = {} as Record<C, SeededChallenge>;
    for (const [handle, fields] of Object.entries(spec.challenges ?? {}) as [C, Difficulty | object][])
      challenges[handle] = await addChallenge(
        t,
        typeof fields === 'string' ? { difficulty: fields } : fields,
      );

    const submit = (who: TestClient, c: SeededChallenge, flag = c.flag) =>
      who.post('/api/ctf/submit-flag', { flag, challenge_id: c.id });
    const solve = async (who: TestClient, c: SeededChallenge) => {
      t.clock.advance(60_000);
      const res = await submit(who, c);
      expect(res.body.message, `${who.user?.username} solving ${c.name}`).toBe(MESSAGES.correctFlag);
    };
    for (const [name, handle] of spec.solves ?? []) await solve(users[name], challenges[handle]);

    const firstAdmin = spec.admins?.[0];
    // A getter, so an event without admins fails where a test reaches for one.
    Object.defineProperty(t, 'admin', {
      get(): TestClient {
        if (firstAdmin === undefined) throw new Error('startedEvent: the spec named no admins');
        return users[firstAdmin];
      },
    });
    return Object.assign(t as TestApp & { readonly admin: TestClient }, {
      users,
      teams,
      challenges,
      userId,
      submit,
      solve,
      board: async (who: TestClient = t.visitor()) => (await who.get('/api/info/leaderboard')).body,
    });
  } catch (err) {
    await t.close();
    throw err;
  }
}

/**
 * Inside a test: starts the event and closes it when the test finishes, so the test opens with
 * its whole scenario and needs no beforeEach or afterEach.
 */
export async function scenario<
  const U extends string = never,
  const A extends string = never,
  const C extends string = never,
  const T extends string = never,
>(spec: EventSpec<U, A, C, T> = {}): Promise<StartedEvent<U, A, C, T>> {
  const t = await startedEvent(spec);
  onTestFinished(() => t.close());
  return t;
}
