import type { components } from './generated/openapi';

export type ErrorCode = components['schemas']['ErrorCode'];
export type ErrorBody = components['schemas']['Error'];

/** A refusal by the API: the HTTP status, the machine `code`, and what the body said. */
export class StsApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly reason?: string;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  readonly retryAfterS?: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody, retryAfterS?: number) {
    super(`${status} ${body.code}: ${body.error}`);
    this.name = 'StsApiError';
    this.status = status;
    this.code = body.code;
    this.reason = body.reason;
    this.retryAfterS = retryAfterS;
    this.body = body;
  }
}

/** The request never got an answer (connection refused or reset, timeout). */
export class StsNetworkError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'StsNetworkError';
  }
}
