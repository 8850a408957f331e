import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { OpenApiConformance, retryingUnavailable, type TestOperator } from '@sts/testing';

const OPENAPI_FILE = join(__dirname, '../../apps/gateway/openapi.json');

/** A client gives up on an answer after this long and counts a hang. */
export const CLIENT_TIMEOUT_MS = 5_000;

/** Requests under way, per gateway base URL (every Api of this process counts here). */
const inFlight = new Map<string, number>();

/**
 * Resolves once no request to `base` is under way, or after `boundMs`: what a
 * load balancer's connection draining waits for before a target leaves (no
 * request outlives the client's timeout, so CLIENT_TIMEOUT_MS bounds it).
 */
export async function untilDrained(base: string, boundMs = CLIENT_TIMEOUT_MS): Promise<number> {
  const started = Date.now();
  while ((inFlight.get(base) ?? 0) > 0 && Date.now() - started < boundMs) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

export interface ApiAnswer {
  /** HTTP status, or 'hang' (no answer within the client timeout) or 'error' (no connection). */
  status: number | 'hang' | 'error';
  body: any;
  retryAfter: string | null;
  ms: number;
}

export interface Trader {
  userId: string;
  wallet: string;
  headers: Record<string, string>;
}

/**
 * The public API as a client with a 5 s timeout sees it. Every answer that names an
 * operation of the kept OpenAPI document is checked against it, faults or not; what
 * breaks it is kept in `descriptionProblems` for the matrix to judge.
 */
export class Api {
  readonly descriptionProblems: string[] = [];
  private readonly conformance = OpenApiConformance.load(OPENAPI_FILE);

  /** `base`: the gateway, or where to find it now (a lab's front door moves off a struck host). */
  constructor(private readonly base: string | (() => string)) {}

  get baseUrl(): string {
    return typeof this.base === 'string' ? this.base : this.base();
  }

  async call(
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<ApiAnswer> {
    const started = Date.now();
    const base = this.baseUrl;
    inFlight.set(base, (inFlight.get(base) ?? 0) + 1);
    try {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      const text = await response.text();
      let body: any = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: kept as text, judged as such
      }
      const ms = Date.now() - started;
      const observed = {
        method,
        url: path,
        status: response.status,
        headers: response.headers,
        body,
      };
      this.descriptionProblems.push(...(await this.conformance).problemsOf(observed));
      return { status: response.status, body, retryAfter: response.headers.get('retry-after'), ms };
    } catch (error) {
      const name = (error as Error).name;
      const hang = name === 'TimeoutError' || name === 'AbortError';
      return {
        status: hang ? 'hang' : 'error',
        body: String((error as Error).cause ?? error),
        retryAfter: null,
        ms: Date.now() - started,
      };
    } finally {
      inFlight.set(base, (inFlight.get(base) ?? 1) - 1);
    }
  }

  /** Same as `call`, but throws unless the status is one of `expected` (setup and wind-down). */
  async must(
    expected: number[],
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<any> {
    return this.settled(await this.call(method, path, options), expected, method, path);
  }

  /**
   * `must` for a request that is safe to repeat (a create with its idempotency
   * key): a 503 is retried after its Retry-After (`retryingUnavailable`).
   */
  async mustRetrying(
    expected: number[],
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<any> {
    const answer = await retryingUnavailable(
      () => this.call(method, path, options),
      (unavailable) => unavailable.retryAfter,
    );
    return this.settled(answer, expected, method, path);
  }

  private settled(answer: ApiAnswer, expected: number[], method: string, path: string): any {
    if (typeof answer.status !== 'number' || !expected.includes(answer.status)) {
      throw new Error(
        `${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
      );
    }
    return answer.body;
  }
}

/** A user with an API key and paper credentials on `venues` for its primary wallet. */
export async function createTrader(operator: TestOperator, venues: string[]): Promise<Trader> {
  const user = await operator.userWithKey('trades:read,trades:write,account:read');
  for (const venue of venues) {
    await operator.paperCredential(user.userId, venue, user.wallet);
  }
  return { userId: user.userId, wallet: user.wallet, headers: { 'x-api-key': user.apiKey } };
}

export const idempotencyKey = (): string => `fm-${randomBytes(8).toString('hex')}`;
