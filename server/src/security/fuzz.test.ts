import { adminApi, authApi, type Endpoint } from '@ctf/contract';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectSafeAnswer, stringsIn } from '../../test/answer-checks.js';
import type { TestClient, TestResponse } from '../../test/build-test-app.js';
import { changedTables, snapshotDatabase, type DbSnapshot } from '../../test/db-snapshot.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { buildWorld, type World } from '../../test/security-world.js';
import { arbitraryFor, contractEndpoints, mutationsOf, rawEnvelopes } from '../../test/zod-arbitrary.js';

/**
 * Every endpoint of the contract, walked from contract/src/api, is sent generated bodies (valid
 * ones built from its zod schema, then mutated: wrong types, missing and extra fields, huge,
 * look-alike and NUL strings, deep nesting, other JSON types) and raw envelopes (wrong content
 * types, broken, empty and oversized bodies), as a visitor, a participant and an admin.
 * Whatever arrives: never a 5xx, never a stack trace or SQL in the answer, and a refused request
 * changes no stored row.
 */

type Role = 'visitor' | 'participant' | 'admin';
const ROLES: readonly Role[] = ['visitor', 'participant', 'admin'];

/** Generated requests per endpoint, spread over the three roles (a failure prints its seed for replay). */
const RUNS_PER_ENDPOINT = 45;

// Multipart, not JSON: its own attack suite is server/src/modules/files/files.attacks.test.ts.
const SKIPPED = new Set<Endpoint>([adminApi.upload]);

class Fuzzer {
  private snapshot: DbSnapshot | null = null;
  constructor(readonly w: World) {}

  client(role: Role): TestClient {
    return role === 'visitor' ? this.w.t.visitor() : role === 'participant' ? this.w.leader : this.w.admin;
  }

  /**
   * After an accepted write the world may have lost its principals (a removed user, a demoted
   * admin, a new login that ended the old session): log them in again, outside any measured window.
   */
  private async restorePrincipals(): Promise<void> {
    // A fuzzed moderation may have banned the participant (or its team): lift bans first.
    const db = this.w.t.ctx.database.db;
    await db.updateTable('users').set({ banned: 0 }).execute();
    await db.updateTable('teams').set({ banned: 0 }).execute();
    for (const topic of ['users', 'teams', 'sessions'] as const) this.w.t.ctx.bus.publish(topic);
    this.w.admin = await this.w.t.login('fuzz-admin', { admin: true });
    this.w.leader = await this.w.t.login('fuzz-leader');
  }

  async send(
    role: Role,
    ep: Endpoint,
    init: { body?: unknown; raw?: string | Buffer; contentType?: string; query?: string },
    what: string,
  ): Promise<TestResponse> {
    const { t } = this.w;
    this.snapshot ??= await snapshotDatabase(t.ctx);
    const headers: Record<string, string> = {};
    if (init.contentType) headers['content-type'] = init.contentType;
    const url = ep.path + (init.query ?? '');
    let res: TestResponse;
    if (init.raw !== undefined) {
      res = await this.client(role).request({ method: ep.method, url, payload: init.raw, headers });
    } else if (ep.method === 'POST') {
      res =
        init.body === undefined
          ? await this.client(role).request({ method: 'POST', url, headers })
          : await this.client(role).request({
              method: 'POST',
              url,
              payload: JSON.stringify(init.body),
              headers: { 'content-type': 'application/json', ...headers },
            });
    } else {
      res = await this.client(role).get(url, headers);
    }
    const context = `${role} ${ep.method} ${url} [${what}] body=${JSON.stringify(init.body ?? init.raw?.toString().slice(0, 200))?.slice(0, 300)}`;
    const echoed = stringsIn(init.body);
    if (typeof init.raw === 'string') echoed.push(init.raw);
    if (init.query) echoed.push(...decodeURIComponent(init.query.replace(/\+/g, ' ')).split(/[?&=]/));
    expectSafeAnswer(res, echoed, context);
    if (res.status >= 400) {
      const after = await snapshotDatabase(t.ctx);
      expect(
        changedTables(this.snapshot, after),
        `${context}: refused with ${res.status} but changed rows`,
      ).toEqual([]);
    } else if (ep.method === 'POST' || ep.path === authApi.logout.path) {
      await this.restorePrincipals();
      this.snapshot = await snapshotDatabase(t.ctx);
    }
    return res;
  }
}

const queryArb = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('id', 'challenge_id', '__proto__', 'constructor', 'redirect', 'next', ''),
        fc.string({ maxLength: 8 }),
      ),
      fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom('1', '../../etc/passwd', '%00', "' or 1=1 --", 'x'.repeat(3000)),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : ''));

const endpoints = contractEndpoints().filter((e) => !SKIPPED.has(e.endpoint));
const withBody = endpoints.filter((e) => e.endpoint.method === 'POST' && e.endpoint.body);
const withoutBody = endpoints.filter((e) => !(e.endpoint.method === 'POST' && e.endpoint.body));

for (const kind of testDatabaseKinds()) {
  describe(`fuzzing every contract endpoint on ${kind}`, () => {
    it('walks the whole contract (every area, both methods)', () => {
      const paths = endpoints.map((e) => e.endpoint.path);
      expect(paths.length).toBeGreaterThanOrEqual(35);
      for (const p of [
        '/api/team/add-member',
        '/api/ctf/submit-flag',
        '/api/admin/ctf/update_challenge',
        '/api/auth/local',
        '/api/info/get-completions',
      ])
        expect(paths).toContain(p);
      expect(withBody.length).toBeGreaterThanOrEqual(19);
    });

    // Generated bodies reach the deep paths (and accepted ones change the event), so each endpoint
    // gets a fresh event.
    describe('generated and mutated bodies', () => {
      let w: World;
      beforeEach(async () => {
        w = await buildWorld(kind);
      });
      afterEach(async () => {
        await w.t.close();
      });
      for (const { key, endpoint: ep } of withBody) {
        it(`${key} (${ep.method} ${ep.path}): generated and mutated input`, async () => {
          const fuzzer = new Fuzzer(w);
          const request = arbitraryFor(ep.body!, w.hints).chain((valid) => mutationsOf(valid));
          await fc.assert(
            fc.asyncProperty(fc.constantFrom(...ROLES), request, async (r, m) => {
              await fuzzer.send(r, ep, { body: m.body }, m.what);
            }),
            { numRuns: RUNS_PER_ENDPOINT },
          );
        });
      }
    });

    // Queries and raw envelopes are refused almost always; one event serves them all (an accepted
    // request only moves the snapshot the next refusals are compared with).
    describe('queries and raw envelopes', () => {
      let w: World;
      beforeAll(async () => {
        w = await buildWorld(kind);
      });
      afterAll(async () => {
        await w.t.close();
      });
      for (const { key, endpoint: ep } of withoutBody) {
        it(`${key} (${ep.method} ${ep.path}): generated queries`, async () => {
          const fuzzer = new Fuzzer(w);
          await fc.assert(
            fc.asyncProperty(fc.constantFrom(...ROLES), queryArb, async (r, query) => {
              await fuzzer.send(r, ep, { query }, 'query');
            }),
            { numRuns: Math.ceil(RUNS_PER_ENDPOINT / 3) },
          );
        });
      }
      for (const { key, endpoint: ep } of withBody) {
        it(`${key}: raw envelopes (content types, broken, empty, nested and oversized bodies)`, async () => {
          const fuzzer = new Fuzzer(w);
          const valid = fc.sample(arbitraryFor(ep.body!, w.hints), { numRuns: 1, seed: 7 })[0];
          for (const envelope of rawEnvelopes(valid)) {
            for (const r of ROLES) {
              const res = await fuzzer.send(
                r,
                ep,
                { raw: envelope.payload, contentType: envelope.contentType },
                envelope.what,
              );
              if (envelope.expect) expect(envelope.expect, `${r} ${envelope.what}`).toContain(res.status);
            }
          }
          // No body at all.
          for (const r of ROLES) await fuzzer.send(r, ep, {}, 'no body');
        });
      }
    });
  });
}
