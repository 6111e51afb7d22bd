import type { FastifyReply, FastifyRequest } from 'fastify';

/** A JSON answer serialised once and shared by every caller, with its strong ETag. */
export interface CachedJson {
  json: string;
  etag: string;
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * Sends a pre-serialised answer (no per-request serialisation), or 304 with no body when the
 * caller already holds these exact bytes. no-cache: browsers keep it but revalidate every time,
 * so a solve shows on the next read.
 */
export function sendCachedJson(
  request: FastifyRequest,
  reply: FastifyReply,
  cached: CachedJson,
): FastifyReply {
  void reply.header('etag', cached.etag).header('cache-control', 'no-cache');
  if (matches(request.headers['if-none-match'], cached.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(cached.json);
}
