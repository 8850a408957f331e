import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ConnectionRegistry } from './connections/connection-registry';
import type { HealthCheck } from './health/health.check';

export const WS_PATH = '/api/v1/ws';

/** Seconds a client should wait before retrying a 503 (a dependency is gone). */
const RETRY_AFTER_S = 2;

/** Liveness: the process answers. Readiness: Postgres and NATS answer (also `/healthz`). */
const LIVENESS_PATH = '/livez';
const READINESS_PATHS: ReadonlySet<string> = new Set(['/readyz', '/healthz']);

/** The path when it is one of the notifier's routes: never a raw URL as a metric label. */
export function routeOf(path: string): string {
  return path === LIVENESS_PATH || path === WS_PATH || READINESS_PATHS.has(path)
    ? path
    : 'unmatched';
}

export const headerOf = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export /** Refuses an upgrade with a plain HTTP answer carrying the same `{error, code}` body as the gateway. */
function refuseUpgrade(
  socket: Duplex,
  status: number,
  body: { error: string; code: string; reason?: string },
): void {
  const text = JSON.stringify(body);
  const retryAfter = status === 503 ? `Retry-After: ${RETRY_AFTER_S}\r\n` : '';
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: application/json\r\n' +
      retryAfter +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      'Connection: close\r\n\r\n' +
      text,
  );
}

export /**
 * A request Node's parser refuses before any handler runs (a head over 16 KiB,
 * malformed HTTP): the same `{error, code}` body as every other refusal,
 * instead of Node's bare status line.
 */
function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    refuseUpgrade(socket, 431, { error: 'request headers too large', code: 'headers_too_large' });
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    refuseUpgrade(socket, 408, { error: 'request timeout', code: 'request_timeout' });
  } else {
    refuseUpgrade(socket, 400, { error: 'malformed request', code: 'invalid_request' });
  }
}

/** A plain HTTP request: liveness, readiness, 426 on the socket's path, else 404. */
export async function answerRequest(
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
  deps: { registry: ConnectionRegistry; health: HealthCheck },
): Promise<void> {
  if (request.method === 'GET' && path === LIVENESS_PATH) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: 'ok', connections: deps.registry.size }));
    return;
  }
  if (request.method === 'GET' && READINESS_PATHS.has(path)) {
    const report = await deps.health.report();
    response.writeHead(report.healthy ? 200 : 503, {
      'content-type': 'application/json',
      ...(report.healthy ? {} : { 'retry-after': String(RETRY_AFTER_S) }),
    });
    response.end(JSON.stringify(report.body));
    return;
  }
  const status = path === WS_PATH ? 426 : 404;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify(
      status === 426
        ? { error: 'this path only accepts WebSocket upgrades', code: 'invalid_request' }
        : { error: 'not found', code: 'not_found' },
    ),
  );
}
