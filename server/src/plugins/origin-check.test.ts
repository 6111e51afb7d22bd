import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { crossSiteRefusal, siteOrigins } from './origin-check.js';

describe('the origins that are this site', () => {
  it('on a loopback trial: every loopback name with the same scheme and port', () => {
    expect([...siteOrigins('http://localhost:3801')].sort()).toEqual(
      ['http://127.0.0.1:3801', 'http://[::1]:3801', 'http://localhost:3801'].sort(),
    );
    expect(siteOrigins('http://127.0.0.1:3000').has('http://localhost:3000')).toBe(true);
    expect(siteOrigins('http://[::1]:3000').has('http://127.0.0.1:3000')).toBe(true);
    expect(siteOrigins('http://localhost:3000').has('http://localhost:3001')).toBe(false);
    expect(siteOrigins('http://localhost:3000').has('https://localhost:3000')).toBe(false);
  });

  it('on a public address: that one origin only', () => {
    expect([...siteOrigins('https://ctf.example.org')]).toEqual(['https://ctf.example.org']);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`signing in on a loopback trial (${kind})`, () => {
    let t: TestApp | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    const signIn = (app: TestApp, origin: string, username: string) =>
      app.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        payload: { username },
        headers: { origin },
      });

    it('takes the local sign-in from 127.0.0.1, localhost and [::1] alike', async () => {
      t = await buildTestApp(kind, { PUBLIC_URL: 'http://localhost:3801' });
      for (const [i, origin] of [
        'http://127.0.0.1:3801',
        'http://localhost:3801',
        'http://[::1]:3801',
      ].entries()) {
        const res = await signIn(t, origin, `trial-${i}`);
        expect(res.statusCode, origin).toBe(200);
        expect(String(res.headers['set-cookie'])).toContain('ctf_session=');
      }
    });

    it('refuses another address with the reason and the address to open', async () => {
      t = await buildTestApp(kind, { PUBLIC_URL: 'http://localhost:3801' });
      const res = await signIn(t, 'http://192.168.1.20:3801', 'elsewhere');
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(crossSiteRefusal('http://localhost:3801'));
      expect(res.json().message).toContain('Open the site at http://localhost:3801');
    });
  });

  describe(`a public site (${kind})`, () => {
    it('takes no loopback alias, and names its PUBLIC_URL in the refusal', async () => {
      const t = await buildTestApp(kind, { PUBLIC_URL: 'https://ctf.example.org' });
      try {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/team/create',
          payload: { team_name: 'Nope' },
          headers: { origin: 'http://127.0.0.1:3000' },
        });
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toContain('Open the site at https://ctf.example.org');
      } finally {
        await t.close();
      }
    });
  });
}
