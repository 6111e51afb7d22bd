import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { $ZodType } from 'zod/v4/core';

/** How many query strings' validations each route keeps (the one kept longest goes first). */
export const KEPT_QUERIES_PER_ROUTE = 256;
/** A query longer than this (as JSON) is validated every time and never kept. */
export const KEPT_QUERY_MAX_LENGTH = 256;

type Validation = { value: unknown } | { error: Error };

/**
 * The validator of every route: zod's (fastify-type-provider-zod). A query string's validation
 * is kept per route by the parsed query: the pages of a board or a graph are asked for by every
 * player with a few dozen distinct queries, and zod's run (~1.5 µs for the board's page query)
 * is a measurable part of such an answer, where the kept result is a map read. Only a valid
 * query whose every field is a string, number, boolean or undefined is kept, frozen, so no
 * handler can change what the next request gets; bodies and refusals are validated each time.
 */
export const routeValidatorCompiler: FastifySchemaCompiler<$ZodType> = (route) => {
  const validate = validatorCompiler(route) as (data: unknown) => Validation;
  if (route.httpPart !== 'querystring') return validate;
  const kept = new Map<string, Validation>();
  return (data: unknown) => {
    const key = JSON.stringify(data);
    const known = key === undefined ? undefined : kept.get(key);
    if (known) return known;
    const result = validate(data);
    if (key !== undefined && key.length <= KEPT_QUERY_MAX_LENGTH && keepable(result)) {
      Object.freeze(result.value);
      if (kept.size >= KEPT_QUERIES_PER_ROUTE) kept.delete(kept.keys().next().value!);
      kept.set(key, result);
    }
    return result;
  };
};

function keepable(result: Validation): result is { value: Record<string, unknown> } {
  if (!('value' in result) || typeof result.value !== 'object' || result.value === null) return false;
  for (const field of Object.values(result.value)) {
    const type = typeof field;
    if (type !== 'string' && type !== 'number' && type !== 'boolean' && type !== 'undefined') return false;
  }
  return true;
}
