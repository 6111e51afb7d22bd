import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Provider (panva's oidc-provider, the certified one) on a loopback port, started by
 * a test. It signs in whichever account `nextAccount` names without a form (its interaction is
 * finished in code), and can tamper with the ID token its token endpoint answers: re-signed with
 * another key, expired, for another audience or another nonce, so each check of the relying party
 * is proven to refuse it.
 */

export const OIDC_TEST_CLIENT = { id: 'ctf-test-client', secret: 'ctf-test-client-secret-0123456789' };

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

/** Changes the ID token's claims, and signs with `key` (the provider's own key when absent). */
export type IdTokenTamper = (claims: Record<string, unknown>) => {
  claims: Record<string, unknown>;
  key?: KeyObject;
};

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An RS256 JWT of these claims signed with this key, under this key id. */
export function signJwt(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

export class OidcTestProvider {
  readonly keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  readonly kid = 'test-signing-key';
  url = '';
  /** The account the next sign-in approves. */
  nextAccount = 'student-1';
  readonly accounts = new Map<string, TestAccount>();
  tamper: IdTokenTamper | null = null;
  private server: http.Server | null = null;

  async start(redirectUri: string): Promise<void> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const jwk = {
      ...this.keys.privateKey.export({ format: 'jwk' }),
      kid: this.kid,
      alg: 'RS256',
      use: 'sig',
    };
    const provider = new Provider(this.url, {
      clients: [
        {
          client_id: OIDC_TEST_CLIENT.id,
          client_secret: OIDC_TEST_CLIENT.secret,
          redirect_uris: [redirectUri],
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [jwk as never] },
      cookies: { keys: ['oidc-test-cookie-key'] },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'preferred_username'],
      },
      features: { devInteractions: { enabled: false } },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 600,
        IdToken: 600,
        Interaction: 600,
        Session: 600,
      },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => ({
        accountId: id,
        claims: () => ({ sub: id, ...this.accounts.get(id) }),
      }),
    });
    provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
      if (ctx.path.startsWith('/interaction/')) {
        const details = await provider.interactionDetails(ctx.req, ctx.res);
        const accountId = this.nextAccount;
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        const to = await provider.interactionResult(
          ctx.req,
          ctx.res,
          { login: { accountId }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
        ctx.status = 303;
        ctx.redirect(to);
        return;
      }
      await next();
      const body = ctx.body as Record<string, unknown> | undefined;
      if (ctx.path === '/token' && this.tamper && body && typeof body.id_token === 'string') {
        const payload = JSON.parse(
          Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString(),
        ) as Record<string, unknown>;
        const changed = this.tamper(payload);
        ctx.body = {
          ...body,
          id_token: signJwt(changed.claims, changed.key ?? this.keys.privateKey, this.kid),
        };
      }
    });
    server.on('request', provider.callback());
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  env(): Record<string, string> {
    return {
      OIDC_ISSUER: this.url,
      OIDC_CLIENT_ID: OIDC_TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_TEST_CLIENT.secret,
      OIDC_LABEL: 'University login',
    };
  }

  /**
   * Follows a browser's way through the provider from its authorize URL (cookies kept per
   * provider), and answers the redirect back to `callbackPrefix` with its query.
   */
  async approve(authorizeUrl: string, callbackPrefix: string): Promise<URL> {
    const jar = new Map<string, string>();
    let next = authorizeUrl;
    for (let hop = 0; hop < 10; hop++) {
      if (next.startsWith(callbackPrefix)) return new URL(next);
      const res = await fetch(next, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair!.indexOf('=');
        jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (!location)
        throw new Error(`the provider answered ${res.status} without a redirect: ${await res.text()}`);
      next = new URL(location, next).toString();
    }
    throw new Error('too many redirects at the provider');
  }
}
