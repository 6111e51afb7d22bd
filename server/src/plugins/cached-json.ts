import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedJson } from '../lib/cached-json.js';

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * Sends a pre-serialised answer (no per-request serialisation), compressed when the caller
 * accepts it (fast for an answer's first few bodies, well after: CachedJson), or 304 with no
 * body when the caller already holds this content in this coding. no-cache: browsers keep it but
 * revalidate every time, so a solve shows on the next read.
 */
export function sendCachedJson(
  request: FastifyRequest,
  reply: FastifyReply,
  cached: CachedJson,
  audience: 'public' | 'private' = 'public',
): FastifyReply {
  const coding = cached.codingFor(request.headers['accept-encoding']);
  const { etag, validators, body } = cached.representation(coding);
  // A caller's own answer (user or team info) must never sit in a shared cache.
  const cacheControl = audience === 'private' ? 'private, no-cache' : 'no-cache';
  void reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'Accept-Encoding');
  const held = request.headers['if-none-match'];
  if (held && validators.some((tag) => matches(held, tag))) return reply.code(304).send();
  if (coding !== 'identity') void reply.header('content-encoding', coding);
  return reply.type('application/json; charset=utf-8').send(body());
}
