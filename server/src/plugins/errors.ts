import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES } from '@ctf/contract';
import { isDatabaseUnavailable } from '../db/connect.js';
import { DomainError } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Put in front of every error message of the route that lacks the word 'Error' (the rating
     * call: the web colours its answer by that word; docs/product.md §8).
     */
    errorMessagePrefix?: string;
  }
}

/** Admin calls answer {acknowledge, message}; every other call answers {message} (docs/product.md §7). */
function isAdminPath(url: string): boolean {
  return url.startsWith('/api/admin/') && url !== '/api/admin/authenticated';
}

/** The one error handler: 4xx with a clear JSON message; 5xx never shows internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    let status: number;
    let message: string;
    let code: string | undefined;
    if (err instanceof DomainError) {
      status = err.statusCode;
      message = err.message;
      code = err.code;
      if (err.retryAfterSeconds !== undefined) reply.header('Retry-After', String(err.retryAfterSeconds));
    } else if (hasZodFastifySchemaValidationErrors(err)) {
      status = 400;
      const issue = err.validation[0];
      const where = issue?.instancePath ? issue.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
      const text = issue?.message ?? 'Invalid input';
      message = where ? `Invalid ${where}: ${text}` : `Invalid input: ${text}`;
      code = 'bad_input';
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      status = err.statusCode;
      code = err.code;
      message =
        status === 413
          ? 'Request body is too large'
          : status === 415
            ? 'Unsupported content type'
            : 'Bad request';
      if (status === 400 && err.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
        message = 'Request body is not valid JSON';
      if (status === 400 && err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') message = 'Request body is empty';
      if (status === 429) message = err.message || 'Too many requests, please slow down';
    } else if (isDatabaseUnavailable(err)) {
      // NOTE: an outage is an answer the page can act on (try again), not an internal error; one
      // short line per request, no stack.
      status = 503;
      message = MESSAGES.databaseUnavailable;
      code = 'unavailable';
      reply.header('Retry-After', '5');
      request.log.warn(`request failed: the database is unreachable (${err.message})`);
    } else {
      status = err.statusCode === 503 ? 503 : 500;
      message = status === 503 ? 'Service temporarily unavailable, please retry' : 'Internal server error';
      request.log.error({ err }, 'request failed');
    }
    const prefix = request.routeOptions.config?.errorMessagePrefix;
    if (prefix && !message.includes('Error')) message = prefix + message;
    const body: Record<string, unknown> = isAdminPath(request.url)
      ? { acknowledge: false, message }
      : { message };
    if (code) body.code = code;
    void reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
  });
}
