import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '@sts/platform';

/** A caller's `X-Request-Id` is kept as the correlation id when it is this short and plain. */
const GIVEN_REQUEST_ID = /^[\w-]{1,64}$/;

/**
 * A request's correlation id (Fastify's `request.id`): the caller's
 * `X-Request-Id` when it is one, a fresh UUID otherwise. It names the
 * request's log line and travels with the commands and budget requests the
 * request causes, so one id follows a create across services.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && GIVEN_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * One line per answered request, at info (nothing is registered below it):
 * method, URL, status, time and correlation id, never a header (they carry
 * keys and tokens). Written once the answer is sent, from the root logger:
 * no logger is bound to a request, and no async context is kept per request
 * (a request logger of pino-http behind nestjs-pino did both, on every
 * request, and the async context made every promise of the process costlier).
 */
export function registerRequestLog(
  fastify: FastifyInstance,
  logger: Logger,
  skip: ReadonlySet<string>,
): void {
  if (!logger.isLevelEnabled('info')) {
    return;
  }
  fastify.addHook('onResponse', (request, reply, done) => {
    if (!skip.has(request.url)) {
      const { statusCode } = reply;
      const line = {
        correlation_id: request.id,
        req: { method: request.method, url: request.url },
        res: { statusCode },
        responseTime: Math.round(reply.elapsedTime),
      };
      if (statusCode >= 500) {
        logger.error(line, 'request errored');
      } else {
        logger.info(line, 'request completed');
      }
    }
    done();
  });
}
