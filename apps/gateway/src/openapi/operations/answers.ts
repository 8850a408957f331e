import type { ErrorCode } from '@sts/platform';

/**
 * What each operation answers: its successes (status, schema, example) and the
 * error codes it can refuse with. Statuses of the codes come from the one
 * mapping (`httpStatusOf`), so the description and the filter cannot disagree.
 */
export type Success =
  | { status: number; description: string; schema: Record<string, unknown>; example: unknown }
  /** An answer with no body (204). */
  | { status: 204; description: string };

export interface OperationAnswers {
  operationId: string;
  /** What the operation does; required unless the controller's ApiOperation says it. */
  description?: string;
  /** A body the gateway accepts as it stands (request-conformance.e2e.spec.ts sends it). */
  requestExample?: Record<string, unknown>;
  successes: Success[];
  /** Codes it refuses with; `session_required` marks a browser-session-only operation. */
  errors: ErrorCode[];
  /** Needs no credentials (interface: Public endpoints). */
  public?: boolean;
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const arrayOf = (name: string) => ({ type: 'array', items: ref(name) });

export const TRADE_ID = '8f14e45f-ceea-467a-9575-6c3f1b2a9e01';
export const WALLET = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
/** The address of private key 0x…02: the request examples link it, as a test can sign for it. */
export const SECOND_WALLET = '0x2b5ad5c4795c026514f8317c7a215e218dccd6cf';
export const AT = '2026-01-05T09:30:00.000Z';

/**
 * Refused by the edge (a body, even on a GET or DELETE, is parsed and bounded
 * first), by the rate limiter or for a lost dependency, on any route.
 */
export const EVERY_ROUTE: ErrorCode[] = [
  'invalid_request',
  'payload_too_large',
  'unsupported_media_type',
  'request_timeout',
  'rate_limited',
  'uri_too_long',
  'headers_too_large',
  'service_unavailable',
  'internal_error',
];
export const API_KEY_OR_JWT: ErrorCode[] = ['unauthorized', 'insufficient_scope', 'ip_not_allowed'];
export const SESSION_ONLY: ErrorCode[] = ['unauthorized', 'session_required'];
export const WITH_BODY: ErrorCode[] = [
  'invalid_request',
  'payload_too_large',
  'unsupported_media_type',
  'request_timeout',
];

/**
 * The rate limiter's headers (`#/components/headers`). The limiter runs as a
 * request arrives, before authentication, so nearly every answer carries them;
 * they are described where a client relies on them and they are always sent:
 * a success, and a 429 (refused here or by a venue budget). Refusals the edge
 * gives before any route runs (414, 431, a malformed request line) lack them.
 */
export const RATE_LIMIT_HEADERS = {
  RateLimitLimit: {
    description:
      'requests per second one caller (an API key, a browser session, or an IP without either) ' +
      'may make, counted across every gateway replica (GATEWAY_RATE_LIMIT_PER_S)',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  RateLimitRemaining: {
    description: "requests the caller has left in the current second's window, after this one",
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitReset: {
    description: 'seconds until the current window ends and the count starts again',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
};

/** The `X-RateLimit-*` headers of an answer with this status, where it is always sent. */
export function rateLimitHeaders(status: number): Record<string, unknown> {
  if (status >= 400 && status !== 429) {
    return {};
  }
  return {
    'X-RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
    'X-RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
    'X-RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
  };
}
