import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A request hook (onRequest, preValidation) made of a check that throws to refuse: a callback
 * hook, so a request that passes costs no promise and no turn of the microtask queue, as an
 * async hook would at every request. A thrown error is the refusal Fastify answers.
 */
export function checkHook(check: (request: FastifyRequest) => void) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void => {
    try {
      check(request);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  };
}
