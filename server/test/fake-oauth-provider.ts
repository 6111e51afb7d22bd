import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Discord and GitHub on loopback, speaking real HTTP: authorize (redirects straight
 * back with a code, as if the person approved), token (checks client credentials, redirect URI and
 * the PKCE verifier), and the profile endpoints the login code reads. The login code under test is
 * the production code, pointed here by the *_AUTH_URL / *_TOKEN_URL / *_API_URL variables.
 */
export interface FakeProfile {
  id: string;
  login: string;
  email?: string;
  avatar?: string;
  /** GitHub's further addresses (GET /user/emails), verified or not. */
  otherEmails?: { email: string; verified: boolean }[];
}

interface IssuedCode {
  profile: FakeProfile;
  redirectUri: string;
  clientId: string;
  codeChallenge: string | null;
}

export const FAKE_CLIENT = { id: 'fake-client-id', secret: 'fake-client-secret' };

export class FakeOAuthProvider {
  private server: http.Server | null = null;
  private codes = new Map<string, IssuedCode>();
  private tokens = new Map<string, FakeProfile>();
  /** Who "approves" at the next authorize request. */
  nextProfile: FakeProfile = { id: '1001', login: 'octocat', email: 'octocat@example.org' };
  /**
   * Who approves, chosen from the authorize request itself (many people signing in at once, as in
   * the bench's rush); nextProfile when it answers undefined.
   */
  profileFor: ((authorize: URLSearchParams) => FakeProfile | undefined) | null = null;
  /** When set, authorize redirects back with ?error=<value> instead of a code. */
  denyWith: string | null = null;
  /** Every authorize request's query, for assertions on state and PKCE. */
  readonly authorizeRequests: URLSearchParams[] = [];
  url = '';

  /** Listens on `host` (loopback; a container's tests give the engine's bridge address instead). */
  async start(host = '127.0.0.1'): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, host, resolve));
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** Environment variables that point both providers of the app here. */
  env(): Record<string, string> {
    return {
      GITHUB_CLIENT_ID: FAKE_CLIENT.id,
      GITHUB_CLIENT_SECRET: FAKE_CLIENT.secret,
      GITHUB_AUTH_URL: `${this.url}/github/authorize`,
      GITHUB_TOKEN_URL: `${this.url}/github/token`,
      GITHUB_API_URL: `${this.url}/github/api`,
      DISCORD_CLIENT_ID: FAKE_CLIENT.id,
      DISCORD_CLIENT_SECRET: FAKE_CLIENT.secret,
      DISCORD_AUTH_URL: `${this.url}/discord/authorize`,
      DISCORD_TOKEN_URL: `${this.url}/discord/token`,
      DISCORD_API_URL: `${this.url}/discord/api`,
    };
  }

  private json(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private async readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const [, provider, ...rest] = url.pathname.split('/');
    const action = rest.join('/');
    if (action === 'authorize') {
      const q = url.searchParams;
      this.authorizeRequests.push(q);
      const redirect = new URL(q.get('redirect_uri') ?? '');
      if (this.denyWith) {
        redirect.searchParams.set('error', this.denyWith);
      } else {
        const code = randomBytes(12).toString('hex');
        this.codes.set(code, {
          profile: this.profileFor?.(q) ?? this.nextProfile,
          redirectUri: q.get('redirect_uri') ?? '',
          clientId: q.get('client_id') ?? '',
          codeChallenge: q.get('code_challenge'),
        });
        redirect.searchParams.set('code', code);
      }
      redirect.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: redirect.toString() });
      res.end();
      return;
    }
    if (action === 'token' && req.method === 'POST') {
      const form = new URLSearchParams(await this.readBody(req));
      let clientId = form.get('client_id');
      let secret = form.get('client_secret');
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      if (basic) {
        const [id, pw] = Buffer.from(basic[1]!, 'base64').toString().split(':');
        clientId = decodeURIComponent(id ?? '');
        secret = decodeURIComponent(pw ?? '');
      }
      const issued = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      // GitHub answers errors with status 200; do the same for the github path.
      const fail = (error: string) => this.json(res, provider === 'github' ? 200 : 400, { error });
      if (clientId !== FAKE_CLIENT.id || secret !== FAKE_CLIENT.secret) return fail('invalid_client');
      if (!issued || issued.redirectUri !== form.get('redirect_uri')) return fail('invalid_grant');
      if (issued.codeChallenge) {
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (challenge !== issued.codeChallenge) return fail('invalid_grant');
      }
      const token = randomBytes(16).toString('hex');
      this.tokens.set(token, issued.profile);
      return this.json(res, 200, { access_token: token, token_type: 'bearer', scope: '' });
    }
    const profile = this.tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!profile) return this.json(res, 401, { message: 'Bad credentials' });
    if (provider === 'github' && action === 'api/user') {
      return this.json(res, 200, {
        id: Number(profile.id),
        login: profile.login,
        avatar_url: profile.avatar ?? `https://avatars.example.org/${profile.id}`,
        email: null,
      });
    }
    if (provider === 'github' && action === 'api/user/emails') {
      return this.json(res, 200, [
        ...(profile.email ? [{ email: profile.email, primary: true, verified: true }] : []),
        ...(profile.otherEmails ?? []).map((e) => ({ ...e, primary: false })),
      ]);
    }
    if (provider === 'discord' && action === 'api/users/@me') {
      return this.json(res, 200, {
        id: profile.id,
        username: profile.login,
        avatar: profile.avatar ?? null,
        email: profile.email ?? null,
        verified: true,
      });
    }
    this.json(res, 404, { message: 'Not Found' });
  }
}
