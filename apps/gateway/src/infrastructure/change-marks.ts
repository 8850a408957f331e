import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChangeFeed } from './change-feed';

declare module 'fastify' {
  interface FastifyRequest {
    /** ChangeFeed.mark() when the request arrived: what its cached reads must have heard. */
    changeMark?: number;
  }
}

/**
 * Marks every request on arrival, so its cached reads share one fence
 * (ChangeFeed.mark). A request with an API key has its key served from the
 * cache after a fence: that fence is sent now, so its round trip runs beside
 * the rate limit's count instead of after it. Its failure is the
 * authentication's to answer (it waits for the same fence).
 */
export function registerChangeMarks(fastify: FastifyInstance, changes: ChangeFeed): void {
  // Declared, so every request object is built with the field (a field added later changes the
  // objects' shape, and every hook reading them paid for it: docs/perf/gateway.md, eighth round).
  fastify.decorateRequest('changeMark', 0);
  fastify.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const mark = changes.mark();
    request.changeMark = mark;
    if (request.headers['x-api-key'] !== undefined) {
      changes.fence(mark).catch(() => undefined);
    }
    done();
  });
}
