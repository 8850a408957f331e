import type { IncomingMessage, ServerResponse } from 'node:http';
import { sourceAddressOf } from './source-address';

export interface HttpReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RequestContext {
  method: string;
  /** Path with the query string, exactly as signed by the client. */
  pathWithQuery: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  rawBody: string;
  /** The sender's address (`sourceAddressOf`): what a venue's per-IP limits count by. */
  sourceAddress: string;
  /** Destroys the request's TCP connection unanswered, as a network failure would. */
  cutConnection: () => void;
}

export type Handler = (context: RequestContext) => Promise<HttpReply> | HttpReply;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

/**
 * Thrown once an injected fault has cut the connection a request came on:
 * there is nobody to answer, and nothing must be written.
 */
export class AnswerLost extends Error {
  constructor() {
    super('the answer was lost on purpose (lose-next)');
  }
}

/** A reply that ends the request early: thrown by checks, caught by the router. */
export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 64 * 1024;

/** A small router: `/venues/:venue/orders` style paths, JSON bodies, JSON errors. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, path: string, handler: Handler): this {
    const pattern = new RegExp(`^${path.replace(/:([a-z_]+)/g, '(?<$1>[^/]+)')}$`);
    this.routes.push({ method, pattern, handler });
    return this;
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let reply: HttpReply;
    try {
      reply = await this.dispatch(request);
    } catch (error) {
      if (error instanceof AnswerLost) {
        return;
      }
      reply = failureReply(error);
    }
    // A held answer (lose-next hang) may find its connection gone.
    if (response.destroyed) {
      return;
    }
    send(response, reply);
  }

  private async dispatch(request: IncomingMessage): Promise<HttpReply> {
    const url = new URL(request.url ?? '/', 'http://venue-sim');
    const method = request.method ?? 'GET';
    for (const route of this.routes) {
      if (route.method !== method) {
        continue;
      }
      const match = route.pattern.exec(url.pathname);
      if (!match) {
        continue;
      }
      const rawBody = await readBody(request);
      const params = Object.fromEntries(
        Object.entries(match.groups ?? {}).map(([name, value]) => [
          name,
          decodeURIComponent(value),
        ]),
      );
      return route.handler({
        method,
        pathWithQuery: `${url.pathname}${url.search}`,
        params,
        query: url.searchParams,
        headers: request.headers,
        rawBody,
        sourceAddress: sourceAddressOf(request.socket),
        cutConnection: () => request.socket.destroy(),
      });
    }
    return {
      status: 404,
      body: { error: `no route ${method} ${url.pathname}`, code: 'not_found' },
    };
  }
}

/** The reply a thrown refusal stands for (anything unexpected is a 500). */
export function failureReply(error: unknown): HttpReply {
  if (error instanceof HttpFailure) {
    return {
      status: error.status,
      body: { error: error.message, code: error.code, ...error.extra },
      headers: error.headers,
    };
  }
  return { status: 500, body: { error: 'internal error', code: 'internal_error' } };
}

function send(response: ServerResponse, reply: HttpReply): void {
  const body = reply.body === undefined ? '' : JSON.stringify(reply.body);
  response.writeHead(reply.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...reply.headers,
  });
  response.end(body);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new HttpFailure(413, 'invalid_request', 'body too large');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJson(raw: string): Record<string, unknown> {
  if (raw === '') {
    return {};
  }
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // fall through to the same refusal as a non-object body
  }
  throw new HttpFailure(400, 'invalid_request', 'body must be a JSON object');
}
