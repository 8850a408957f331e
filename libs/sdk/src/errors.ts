import type { components } from './generated/openapi';

export type ErrorCode = components['schemas']['ErrorCode'];
export type ErrorBody = components['schemas']['Error'];

/**
 * Codes of answers the API itself did not write: a proxy's or load
 * balancer's page (502 HTML), an empty 504, a body that is not JSON. They are
 * named for the HTTP status, so a bot handles them as it handles the API's.
 */
export type TransportErrorCode = 'bad_gateway' | 'gateway_timeout' | 'unexpected_response';

export type StsErrorCode = ErrorCode | TransportErrorCode;

/** The error body as the SDK hands it over: the API's, or one made from the status. */
export type StsErrorBody = Omit<ErrorBody, 'code'> & { code: StsErrorCode };

/** What an answer without the API's `{error, code}` body is called, by its status. */
const CODE_OF_STATUS: Readonly<Record<number, StsErrorCode>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'insufficient_scope',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** A refusal by the API (or by what stands before it): the HTTP status, the machine `code`, the body. */
export class StsApiError extends Error {
  readonly status: number;
  readonly code: StsErrorCode;
  readonly reason?: string;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  readonly retryAfterS?: number;
  readonly body: StsErrorBody;
  /** The answer's text as it came (an HTML page, empty, or the API's JSON). */
  readonly raw: string;
  /** The body was the API's own `{error, code}`, not a proxy's page or nothing. */
  readonly fromApi: boolean;
  /**
   * The answer's `X-Request-Id`: the id the gateway logged the request under,
   * to quote in a support request. Absent when what answered sent none (a
   * proxy's page, an answer that never reached the gateway).
   */
  readonly requestId?: string;

  constructor(
    status: number,
    body: StsErrorBody,
    retryAfterS?: number,
    raw?: string,
    requestId?: string,
  ) {
    super(`${status} ${body.code}: ${body.error}`);
    this.name = 'StsApiError';
    this.status = status;
    this.code = body.code;
    this.reason = body.reason;
    this.retryAfterS = retryAfterS;
    this.body = body;
    this.raw = raw ?? JSON.stringify(body);
    this.fromApi = raw === undefined || isErrorBody(parseJson(raw));
    this.requestId = requestId;
  }

  /** Any answer's text to an error: the API's body when it is one, else a code for the status. */
  static fromAnswer(
    status: number,
    text: string,
    retryAfterS?: number,
    requestId?: string,
  ): StsApiError {
    const parsed = parseJson(text);
    if (isErrorBody(parsed)) {
      return new StsApiError(status, parsed, retryAfterS, text, requestId);
    }
    const code = CODE_OF_STATUS[status] ?? 'unexpected_response';
    const said = text.trim() === '' ? 'an empty answer' : "an answer that is not the API's";
    const body = { error: `HTTP ${status}: ${said}`, code };
    return new StsApiError(status, body, retryAfterS, text, requestId);
  }
}

/** Where a request that got no answer went, and why it got none. */
export interface NetworkFailure {
  method: string;
  /** The whole URL, e.g. `http://localhost:3000/api/v1/exchanges`. */
  url: string;
  /** The platform's code for the cause: `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`..., or `timeout`. */
  causeCode?: string;
  /** The cause in words, e.g. `connect ECONNREFUSED 127.0.0.1:3000`. */
  causeText: string;
}

/**
 * The request never got an answer (connection refused or reset, name not
 * found, timeout). The message names the URL and the cause:
 * `GET http://localhost:3000/api/v1/exchanges: no answer (connect ECONNREFUSED 127.0.0.1:3000)`.
 */
export class StsNetworkError extends Error {
  readonly method?: string;
  readonly url?: string;
  readonly causeCode?: string;
  readonly causeText?: string;

  constructor(message: string, cause: unknown, failure?: NetworkFailure) {
    super(message, { cause });
    this.name = 'StsNetworkError';
    this.method = failure?.method;
    this.url = failure?.url;
    this.causeCode = failure?.causeCode;
    this.causeText = failure?.causeText;
  }

  /** A failed fetch, described by the deepest cause that names itself (Node's fetch wraps the socket's error). */
  static fromFailure(
    method: string,
    url: string,
    failure: unknown,
    timeoutMs: number,
  ): StsNetworkError {
    const described = describeCause(failure, timeoutMs);
    return new StsNetworkError(`${method} ${url}: no answer (${described.causeText})`, failure, {
      method,
      url,
      ...described,
    });
  }
}

interface Failure {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * Node's fetch throws `TypeError: fetch failed` with the socket's error as
 * `cause` (an AggregateError of one per address when a name resolves to
 * several); browsers say only `Failed to fetch`; the timeout's signal aborts
 * with a `TimeoutError`. The most specific of these, as text and code.
 */
function describeCause(
  failure: unknown,
  timeoutMs: number,
): Omit<NetworkFailure, 'method' | 'url'> {
  let said = '';
  let current: unknown = failure;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { name, message, code, cause, errors } = current as Failure;
    if (name === 'TimeoutError') {
      return { causeCode: 'timeout', causeText: `timed out after ${timeoutMs} ms` };
    }
    const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
    const text = typeof message === 'string' && message !== '' ? message : '';
    said = text || said;
    if (typeof code === 'string') {
      const detail = text || (first as Failure | undefined)?.message;
      return { causeCode: code, causeText: typeof detail === 'string' && detail ? detail : code };
    }
    current = cause ?? first;
  }
  return { causeText: said || String(failure) };
}

/** JSON.parse that answers undefined for text that is not JSON (an HTML page, nothing). */
export function parseJson(text: string): unknown {
  if (text.trim() === '') {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const { error, code } = value as Record<string, unknown>;
  return typeof error === 'string' && typeof code === 'string';
}

/** The event stream ended for good: closed by the client (1000), or a close code no reconnect can fix. */
export class StsStreamClosedError extends Error {
  constructor(
    readonly closeCode: number,
    readonly closeReason: string,
  ) {
    super(`event stream closed for good: ${closeCode} ${closeReason}`);
    this.name = 'StsStreamClosedError';
  }
}
