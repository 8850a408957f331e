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

  constructor(status: number, body: StsErrorBody, retryAfterS?: number, raw?: string) {
    super(`${status} ${body.code}: ${body.error}`);
    this.name = 'StsApiError';
    this.status = status;
    this.code = body.code;
    this.reason = body.reason;
    this.retryAfterS = retryAfterS;
    this.body = body;
    this.raw = raw ?? JSON.stringify(body);
    this.fromApi = raw === undefined || isErrorBody(parseJson(raw));
  }

  /** Any answer's text to an error: the API's body when it is one, else a code for the status. */
  static fromAnswer(status: number, text: string, retryAfterS?: number): StsApiError {
    const parsed = parseJson(text);
    if (isErrorBody(parsed)) {
      return new StsApiError(status, parsed, retryAfterS, text);
    }
    const code = CODE_OF_STATUS[status] ?? 'unexpected_response';
    const said = text.trim() === '' ? 'an empty answer' : "an answer that is not the API's";
    return new StsApiError(status, { error: `HTTP ${status}: ${said}`, code }, retryAfterS, text);
  }
}

/** The request never got an answer (connection refused or reset, timeout). */
export class StsNetworkError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'StsNetworkError';
  }
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
