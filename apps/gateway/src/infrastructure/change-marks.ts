import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChangeFeed } from './change-feed';

declare module 'fastify' {
  interface FastifyRequest {
    /** ChangeFeed.mark() when the request arrived: what its cached reads must have heard. */
    changeMark?: number;
  }
}

/** Marks every request on arrival, so its cached reads share one fence (ChangeFeed.mark). */
export function registerChangeMarks(fastify: FastifyInstance, changes: ChangeFeed): void {
  fastify.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    request.changeMark = changes.mark();
    done();
  });
}
