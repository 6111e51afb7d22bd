import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach } from 'vitest';
import type { TestDatabaseKind } from './databases.js';
import { FAKE_CLIENT, FakeOAuthProvider } from './fake-oauth-provider.js';
import { buildWorld, type World } from './security-world.js';

/**
 * The security world (security-world.ts) with unique canaries planted where secrets live, for the
 * leak suites (server/src/security/leaks*.test.ts): SESSION_SECRET, the OAuth client secret (the
 * fake provider checks it), the admin API token and the flags, with the server's log lines
 * captured at trace level.
 */

export const canary = (what: string) => `CANARY-${what}-${randomBytes(9).toString('hex')}`;

export class LogCapture {
  readonly lines: string[] = [];
  write(line: string): void {
    this.lines.push(line);
  }
}

/**
 * Registers, in the enclosing describe, a fresh canary world before each test (closed after it).
 * `w` and `logs` are the running test's; the canaries stay the same for the whole describe.
 */
export function canaryWorld(kind: TestDatabaseKind) {
  const fake = new FakeOAuthProvider();
  const realSecret = FAKE_CLIENT.secret;
  const planted = {
    fake,
    secrets: {
      sessionSecret: canary('session-secret-0123456789abcdef'),
      clientSecret: canary('oauth-client-secret'),
      adminApiToken: canary('admin-api-token'),
    },
    flags: { active: `flag{${canary('active')}}`, inactive: `flag{${canary('inactive')}}` },
    unsolved: `flag{${canary('unsolved')}}`,
    wrongGuess: `flag{${canary('wrong-guess')}}`,
    w: undefined as unknown as World,
    logs: new LogCapture(),
  };

  beforeEach(async () => {
    // The fake provider checks the client secret it is configured with: make that the canary too.
    FAKE_CLIENT.secret = planted.secrets.clientSecret;
    await fake.start();
    planted.logs = new LogCapture();
    planted.w = await buildWorld(
      kind,
      {
        ...fake.env(),
        SESSION_SECRET: planted.secrets.sessionSecret,
        ADMIN_API_TOKEN: planted.secrets.adminApiToken,
        TRUST_PROXY: 'loopback',
        LOG_LEVEL: 'trace',
      },
      planted.flags,
      { logStream: planted.logs },
    );
  });
  afterEach(async () => {
    await planted.w.t.close();
    await fake.stop();
    FAKE_CLIENT.secret = realSecret;
  });
  return planted;
}
