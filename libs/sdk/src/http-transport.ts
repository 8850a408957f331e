import { parseJson, StsApiError, StsNetworkError } from './errors';
import {
  backoffMs,
  DEFAULT_RETRY,
  RETRYABLE_STATUSES,
  retryAfterSeconds,
  sleep,
  type RetryPolicy,
} from './retry';

export interface HttpOptions {
  /** The gateway, e.g. `http://localhost:3000`, or '' for the page's own origin (paths are under /api/v1). */
  baseUrl: string;
  /** An API key (`X-API-Key`); public endpoints need none. */
  apiKey?: string;
  /** Or a session JWT (`Authorization: Bearer`), as the console signs in; see `authorize`. */
  token?: string;
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout. Default 10 s. */
  timeoutMs?: number;
  /** Replaces the platform's fetch (proxies, instrumentation, tests). */
  fetch?: typeof fetch;
}

/** An answer with the status it came with (create: 202 new, 200 replayed key). */
export interface Answered<T> {
  status: number;
  body: T;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** A request that may be sent twice without doing twice what it does. */
  idempotent: boolean;
}

/**
 * HTTP to the API with the platform's fetch (Node 20+, browsers). Retries
 * 429, 502, 503 and 504 answers (waiting what Retry-After says) and lost
 * connections, for requests that may be sent twice, up to `retry.maxRetries`.
 * An API refusal without Retry-After (maintenance, the kill switch: no end
 * known) is not retried. Any refusal, whatever its body (a proxy's HTML
 * page, nothing), becomes a StsApiError.
 */
export class HttpTransport {
  private readonly retry: RetryPolicy;
  private readonly fetch: typeof fetch;
  private readonly baseUrl: string;
  /** The session JWT of the moment (renewed by `authorize`). */
  token?: string;

  constructor(private readonly options: HttpOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    // Called through a closure: a browser's fetch refuses any `this` but the window.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
  }

  async send<T>(call: Call): Promise<Answered<T>> {
    for (let retry = 0; ; retry += 1) {
      const mayRetry = call.idempotent && retry < this.retry.maxRetries;
      const url = `${this.baseUrl}${call.path}`;
      let response: Response;
      let text: string;
      try {
        response = await this.fetch(url, this.requestOf(call));
        text = await response.text();
      } catch (failure) {
        if (!mayRetry) {
          throw StsNetworkError.fromFailure(call.method, url, failure, this.timeoutMs);
        }
        await sleep(backoffMs(this.retry, retry)!);
        continue;
      }
      const requestId = response.headers.get('x-request-id') ?? undefined;
      if (response.ok) {
        return { status: response.status, body: bodyOf<T>(response.status, text, requestId) };
      }
      const retryAfterS = retryAfterSeconds(response.headers.get('retry-after'));
      const refusal = StsApiError.fromAnswer(response.status, text, retryAfterS, requestId);
      const wait = backoffMs(this.retry, retry, retryAfterS);
      const passes = retryAfterS !== undefined || !refusal.fromApi;
      if (mayRetry && RETRYABLE_STATUSES.has(response.status) && passes && wait !== undefined) {
        await sleep(wait);
        continue;
      }
      throw refusal;
    }
  }

  private requestOf(call: Call): RequestInit {
    const credentials: Record<string, string> = this.options.apiKey
      ? { 'x-api-key': this.options.apiKey }
      : this.token
        ? { authorization: `Bearer ${this.token}` }
        : {};
    return {
      method: call.method,
      headers: {
        accept: 'application/json',
        ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...credentials,
        ...call.headers,
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(this.timeoutMs),
    };
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? 10_000;
  }
}

/** A success's body; one that is not JSON (a proxy's page answered 200) is refused. */
function bodyOf<T>(status: number, text: string, requestId?: string): T {
  const body = parseJson(text);
  if (body === undefined && text.trim() !== '') {
    throw StsApiError.fromAnswer(status, text, undefined, requestId);
  }
  return body as T;
}
