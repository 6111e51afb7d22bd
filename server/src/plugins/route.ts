import {
  rolesFor,
  tokenRuleFor,
  type Access as ContractAccess,
  type Endpoint,
  type StaffRole,
  type TokenRule,
} from '@ctf/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { badInput } from '../lib/errors.js';
import { checkHook } from './check-hook.js';
import { requireStaff, requireUser } from './session.js';

/**
 * Who may call an endpoint: 'anonymous' answers the same to every caller and never looks up a
 * session (the cached public reads: a cookie costs them nothing); 'public' lets visitors in and
 * knows the user when there is one; 'user' refuses visitors; 'admin' lets in the staff roles the
 * authorisation table (contract api/staff-roles.ts) names for the route, and refuses the others.
 */
export type Access = Exclude<ContractAccess, 'token'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by route() for 'anonymous' endpoints: the session plugin does not look the caller up. */
    anonymous?: boolean;
    /** Set by route(): who may call it, as the API reference (modules/api-docs) tells. */
    access?: Access;
    /** Set by route() for 'admin' endpoints: the staff roles the authorisation table lets in. */
    roles?: readonly StaffRole[];
    /**
     * What a personal API token needs to call the route (contract api/token-scopes.ts), set by
     * route(); a route registered by hand is looked up in the same table by its path.
     */
    tokenRule?: TokenRule;
  }
}

type Body<E extends Endpoint> = E['body'] extends z.ZodType ? z.output<E['body']> : undefined;
type Query<E extends Endpoint> = E extends { query: infer Q extends z.ZodType } ? z.output<Q> : unknown;

/**
 * Registers one endpoint of the contract: its method, path, body schema and response schema, with
 * the access guard run before the body is even validated (so a visitor gets 401, not 400).
 * The response schema drops every field the contract does not declare.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  ep: E,
  access: Access,
  handler: (
    request: FastifyRequest & { body: Body<E>; query: Query<E> },
    reply: FastifyReply,
  ) => Promise<z.input<E['response']> | FastifyReply | void>,
  options: Pick<RouteShorthandOptions, 'bodyLimit' | 'config'> = {},
): void {
  // Every admin route is in the one authorisation table, or the app does not start.
  const roles = access === 'admin' ? rolesFor(ep) : undefined;
  if (access === 'admin' && !roles)
    throw new Error(
      `${ep.method} ${ep.path} is missing from the authorisation table (contract api/staff-roles.ts)`,
    );
  // What a token must carry to call it (contract api/token-scopes.ts). A route the token table
  // lacks takes no token at all (fail closed); the route-walking test finds any such route.
  const tokenRule = tokenRuleFor(ep);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.route({
    method: ep.method,
    url: ep.path,
    ...options,
    config: {
      ...options.config,
      anonymous: access === 'anonymous',
      access,
      ...(tokenRule ? { tokenRule } : {}),
      ...(roles ? { roles } : {}),
      ...(ep.acts ? { acts: true } : {}),
    },
    schema: {
      ...(ep.body ? { body: ep.body } : {}),
      ...(ep.query ? { querystring: ep.query } : {}),
      response: { 200: ep.response },
    },
    // Hooks only where they have work: the cached public reads run none.
    ...(access === 'user' || access === 'admin'
      ? {
          onRequest: checkHook((request) => {
            if (access === 'user') requireUser(request);
            else requireStaff(request);
          }),
        }
      : {}),
    ...(ep.body
      ? {
          preValidation: checkHook((request) => {
            if (containsNul(request.body))
              throw badInput('Invalid input: text may not contain NUL characters');
          }),
        }
      : {}),
    handler: handler as never,
  });
}

/**
 * Whether any string (or key) in a parsed JSON body holds a NUL character. PostgreSQL text cannot
 * store one (the query fails), and SQLite would keep it: refusing it at the door answers 400 on
 * both. Walked with a stack, not recursion, so a deeply nested body cannot overflow it.
 */
export function containsNul(body: unknown): boolean {
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}
