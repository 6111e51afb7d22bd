import type { TestApp } from './build-test-app.js';

/** The session cookie a response sets (an emptied one does not count). */
export const sessionOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === 'ctf_session' && c.value !== '')?.value;

/** GET /api/authenticated with this cookie: its status. */
export async function authenticatedWith(t: TestApp, cookie: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: '/api/authenticated', headers: { cookie } })).statusCode;
}
