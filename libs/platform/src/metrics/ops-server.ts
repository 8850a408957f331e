import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface Readiness {
  ready: boolean;
  /** Each dependency or condition by name: `up`, `down`, or a state such as `draining`. */
  checks: Record<string, string>;
}

export interface OpsServerOptions {
  host: string;
  /** 0 picks a free port (specs). */
  port: number;
  registry: Pick<Registry, 'metrics' | 'contentType'>;
  /** What `/readyz` answers; liveness is the process answering at all. */
  readiness: () => Readiness | Promise<Readiness>;
}

export interface OpsServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

const json = (response: ServerResponse, status: number, body: unknown): void => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/** One request: metrics, liveness, readiness, or 404/405. */
async function handle(
  options: OpsServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  switch (path) {
    case '/metrics': {
      const text = await options.registry.metrics();
      response.writeHead(200, { 'content-type': options.registry.contentType });
      response.end(text);
      return;
    }
    case '/livez':
      json(response, 200, { status: 'ok' });
      return;
    case '/readyz':
    case '/healthz': {
      const { ready, checks } = await options.readiness();
      if (ready) {
        json(response, 200, { status: 'ok', checks });
        return;
      }
      const reason = Object.entries(checks)
        .filter(([, state]) => state !== 'up')
        .map(([name]) => name)
        .join(',');
      json(response, 503, { status: 'not_ready', checks, reason });
      return;
    }
    default:
      json(response, 404, { error: 'not found', code: 'not_found' });
  }
}

/**
 * The small HTTP listener each service runs beside its work: `GET /metrics`
 * (Prometheus text), `GET /livez` (200 while the process runs) and
 * `GET /readyz` (also `/healthz`: 200 when ready, else 503 with `reason`
 * naming what is not). It reads in-memory figures only, so a scrape never
 * waits on the service's dependencies beyond what readiness itself checks.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const server = createServer((request, response) => {
    handle(options, request, response).catch(() => {
      if (!response.headersSent) {
        json(response, 500, { error: 'internal', code: 'internal' });
      } else {
        response.destroy();
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
