import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import {
  OrderRejectedError,
  PostOnlyWouldCrossError,
  RateLimitedError,
  UnknownOrderError,
  VenueAuthError,
  VenueNetworkError,
  type VenueError,
} from '../errors';
import { signedHeaders, type PaperCredentials, type WireError } from './protocol';

export interface PaperHttpOptions {
  venue: string;
  /** The venue's base URL, e.g. http://127.0.0.1:7100/venues/paradex. */
  baseUrl: string;
  credentials: PaperCredentials;
  requestTimeoutMs: number;
}

export interface CallOptions {
  query?: Record<string, string | number>;
  body?: unknown;
  /** Public endpoints are sent unsigned. */
  signed?: boolean;
  /** How long the answer is awaited (default requestTimeoutMs). */
  timeoutMs?: number;
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Signed JSON requests to a paper venue over keep-alive connections (the
 * hedge path pays no TCP handshake). Every failure becomes a typed VenueError.
 */
export class PaperHttp {
  private readonly base: URL;
  private readonly agent: Agent;

  constructor(private readonly options: PaperHttpOptions) {
    this.base = new URL(options.baseUrl.replace(/\/+$/, ''));
    const agentOptions = { keepAlive: true, maxSockets: 32, keepAliveMsecs: 10_000 };
    this.agent =
      this.base.protocol === 'https:' ? new HttpsAgent(agentOptions) : new Agent(agentOptions);
  }

  /** The parsed 2xx body; anything else is thrown as a typed VenueError. */
  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const outcome = await this.exchange(method, path, options);
    if (outcome.error) {
      throw outcome.error;
    }
    return outcome.body as T;
  }

  /** Like `call`, but a refusal comes back with its body (a cancel reads the order from a 409). */
  async exchange(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<{ status: number; body: unknown; error?: VenueError }> {
    const search = options.query
      ? `?${new URLSearchParams(Object.entries(options.query).map(([key, value]): [string, string] => [key, String(value)])).toString()}`
      : '';
    const fullPath = `${this.base.pathname}${path}${search}`;
    const body = options.body === undefined ? '' : JSON.stringify(options.body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.signed !== false) {
      Object.assign(headers, signedHeaders(this.options.credentials, method, fullPath, body));
    }
    const response = await this.send(
      method,
      fullPath,
      headers,
      body,
      options.timeoutMs ?? this.options.requestTimeoutMs,
    );
    const parsed = parseBody(response.text);
    if (response.status >= 200 && response.status < 300) {
      return { status: response.status, body: parsed };
    }
    return {
      status: response.status,
      body: parsed,
      error: this.errorOf(
        response.status,
        parsed as Partial<WireError>,
        response.headers['retry-after'],
      ),
    };
  }

  close(): void {
    this.agent.destroy();
  }

  private send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
  ): Promise<RawResponse> {
    const request = this.base.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<RawResponse>((resolve, reject) => {
      const req = request(
        {
          protocol: this.base.protocol,
          hostname: this.base.hostname,
          port: this.base.port,
          path,
          method,
          agent: this.agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', (error) =>
            reject(
              new VenueNetworkError(this.options.venue, `response failed: ${error.message}`, error),
            ),
          );
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (error) =>
        reject(
          new VenueNetworkError(this.options.venue, `${method} ${path}: ${error.message}`, error),
        ),
      );
      req.end(body);
    });
  }

  /** The typed error of a refusal (`status` >= 300), from HTTP or from a socket answer. */
  errorOf(status: number, body: Partial<WireError>, retryAfterHeader?: string): VenueError {
    const venue = this.options.venue;
    const message = body.error ?? `HTTP ${status}`;
    switch (status) {
      case 429: {
        const header = Number(retryAfterHeader);
        const retryAfterMs =
          body.retry_after_ms ?? (Number.isFinite(header) ? header * 1000 : 1000);
        return new RateLimitedError(venue, retryAfterMs);
      }
      case 401:
      case 403:
        return new VenueAuthError(venue, message);
      default:
        break;
    }
    if (body.code === 'api_key_taken' || body.code === 'registration_closed') {
      return new VenueAuthError(venue, message);
    }
    if (body.code === 'post_only_would_cross') {
      return new PostOnlyWouldCrossError(venue, message);
    }
    if (body.code === 'unknown_order') {
      return new UnknownOrderError(venue, message);
    }
    if (status >= 500 && body.code !== 'venue_halted') {
      return new VenueNetworkError(venue, message);
    }
    return new OrderRejectedError(venue, body.reason ?? body.code ?? `http_${status}`, message);
  }
}

function parseBody(text: string): unknown {
  if (text === '') {
    return {};
  }
  try {
    return JSON.parse(text);
  } catch {
    return { error: text.slice(0, 200) };
  }
}
