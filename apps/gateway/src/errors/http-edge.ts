import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError } from '@sts/platform';
import { frameworkRefusal, type ErrorBody } from './app-error.filter';
import { rememberRoute } from './route-table';

/** Largest request body, in bytes (413 payload_too_large past it). */
export const MAX_BODY_BYTES = 64 * 1024;
/** Deepest nesting of objects and arrays in a JSON body (400 invalid_request past it); ours are flat. */
export const MAX_BODY_DEPTH = 16;
/** Longest request target, path and query (414 uri_too_long past it). */
export const MAX_URL_LENGTH = 2048;
/** Largest request head, every header together (431 headers_too_large past it): Node's default. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * A connection-level refusal (oversized head, malformed HTTP), written before
 * any request object exists: the same `{error, code}` body as the filter's.
 */
function onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : error.code === 'HPE_URI_TOO_LONG'
          ? 414
          : 400;
  const [code, text] = frameworkRefusal(status);
  const body = JSON.stringify({ error: text, code });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** The Fastify options that bound what a request may be. */
export const httpEdgeOptions = (trustProxy: boolean): FastifyServerOptions => ({
  trustProxy,
  bodyLimit: MAX_BODY_BYTES,
  clientErrorHandler: onClientError,
  // The router's own refusals (a malformed percent-encoding, a path parameter past 100 characters).
  frameworkErrors: (error, _request, reply: FastifyReply) => {
    const status = error.statusCode === 414 ? 414 : 400;
    const [code, text] = frameworkRefusal(status);
    void reply.code(status).send({ error: text, code } satisfies ErrorBody);
  },
});

/** True when objects or arrays nest deeper than `max` (iterative: a hostile body cannot blow the stack). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) {
      continue;
    }
    if (depth > max) {
      return true;
    }
    for (const child of Object.values(node)) {
      pending.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * JSON bodies through secure-json-parse (a `__proto__` or
 * `constructor.prototype` key is refused, not merged), then a depth check;
 * request targets longer than MAX_URL_LENGTH are refused before routing; and
 * every route is remembered so a wrong method is a 405, not a 404.
 */
export function registerHttpEdge(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => rememberRoute(route.method, route.url));
  fastify.addHook('onRequest', (request, reply, done) => {
    // Every answer names its correlation id: the caller's X-Request-Id when it was one, else ours.
    reply.header('x-request-id', request.id);
    if (request.url.length > MAX_URL_LENGTH) {
      done(new AppError('uri_too_long', `request URI longer than ${MAX_URL_LENGTH} characters`));
      return;
    }
    done();
  });
  // JSON only: Fastify's text/plain parser would hand a string to the validators; now it is a 415.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: MAX_BODY_BYTES },
    (_request, text, done) => {
      let body: unknown;
      try {
        body = secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' });
      } catch {
        done(
          new AppError(
            'invalid_request',
            'the body is not valid JSON (or carries a __proto__ or constructor.prototype key)',
          ),
          undefined,
        );
        return;
      }
      if (nestsDeeperThan(body, MAX_BODY_DEPTH)) {
        done(
          new AppError('invalid_request', `the body nests deeper than ${MAX_BODY_DEPTH} levels`),
          undefined,
        );
        return;
      }
      done(null, body);
    },
  );
}
