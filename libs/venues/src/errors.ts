/**
 * Typed venue failures. Every VenueClient maps its venue's errors onto these,
 * so callers branch on `code` (exhaustively) and never on message text.
 */
export const VENUE_ERROR_CODES = [
  'post_only_would_cross',
  'rate_limited',
  'rejected',
  'unknown_order',
  'auth',
  'network',
  'setup',
] as const;
export type VenueErrorCode = (typeof VENUE_ERROR_CODES)[number];

export class VenueError extends Error {
  /** The message without the venue's name in front. */
  readonly detail: string;

  constructor(
    readonly code: VenueErrorCode,
    readonly venue: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(`${venue}: ${message}`, { cause: options.cause });
    this.name = 'VenueError';
    this.detail = message;
  }
}

/** A post-only order would have taken liquidity; the venue refused it. */
export class PostOnlyWouldCrossError extends VenueError {
  constructor(venue: string, message = 'post-only order would cross the book', cause?: unknown) {
    super('post_only_would_cross', venue, message, { cause });
    this.name = 'PostOnlyWouldCrossError';
  }
}

/** The account's per-second request limit was hit (HTTP 429). Nothing was done. */
export class RateLimitedError extends VenueError {
  constructor(
    venue: string,
    readonly retryAfterMs: number,
    cause?: unknown,
  ) {
    super('rate_limited', venue, `rate limited, retry after ${retryAfterMs} ms`, { cause });
    this.name = 'RateLimitedError';
  }
}

/**
 * The venue refused the request for a business reason (`reason` is a
 * snake_case code such as `insufficient_margin`, `invalid_tick`,
 * `below_min_size`, `duplicate_client_order_id`, `venue_halted`).
 */
export class OrderRejectedError extends VenueError {
  constructor(
    venue: string,
    readonly reason: string,
    message?: string,
    cause?: unknown,
  ) {
    super('rejected', venue, message ?? `rejected: ${reason}`, { cause });
    this.name = 'OrderRejectedError';
  }
}

/** The venue does not know the order (id or client order id). */
export class UnknownOrderError extends VenueError {
  constructor(venue: string, message = 'unknown order', cause?: unknown) {
    super('unknown_order', venue, message, { cause });
    this.name = 'UnknownOrderError';
  }
}

export class VenueAuthError extends VenueError {
  constructor(venue: string, message = 'authentication failed', cause?: unknown) {
    super('auth', venue, message, { cause });
    this.name = 'VenueAuthError';
  }
}

/**
 * The request may or may not have reached the venue (timeout, reset,
 * disconnected). An order request that fails this way must be reconciled by
 * client order id before it is retried.
 */
export class VenueNetworkError extends VenueError {
  constructor(
    venue: string,
    message = 'network failure',
    cause?: unknown,
    /**
     * For an order request: the time (epoch ms) after which the venue refuses
     * it if it has not reached the matching engine yet (the order's own expiry,
     * plus a margin for clocks). A look-up by client order id that finds
     * nothing after this time proves the order was never placed; before it,
     * a "not found" proves nothing (the request may still be on its way).
     * Absent: the venue gives no such bound.
     */
    readonly settlesByMs?: number,
  ) {
    super('network', venue, message, { cause });
    this.name = 'VenueNetworkError';
  }
}

/**
 * The venue took an order request (it named the order) but has not shown
 * its fate within the client's wait: still queued, new or pending, so it may
 * yet fill. Like a lost answer it is settled by looking the order up, but a
 * look-up that misses it later never proves it unplaced: the venue had it.
 */
export class OrderFateUnknownError extends VenueNetworkError {
  /** The venue took the request: "not found" never means "never placed". */
  readonly accepted = true;

  constructor(
    venue: string,
    readonly orderId: string,
    message: string,
    settlesByMs?: number,
  ) {
    super(venue, message, undefined, settlesByMs);
    this.name = 'OrderFateUnknownError';
  }
}

/** True for a lost or undecided order request that the venue is known to have taken. */
export const venueTookRequest = (error: unknown): boolean => error instanceof OrderFateUnknownError;

export const isVenueError = (value: unknown): value is VenueError => value instanceof VenueError;

/** The venue refuses requests because it is halted: a pause for the trade, not a failure. */
export const isVenueHalted = (value: unknown): boolean =>
  value instanceof OrderRejectedError && value.reason === 'venue_halted';

/**
 * This deployment cannot trade the venue live: something the operator
 * provides is missing (Lighter's signer library). Not the venue's answer, and
 * not transient: nothing was sent.
 */
export class VenueSetupError extends VenueError {
  constructor(venue: string, message: string) {
    super('setup', venue, message);
    this.name = 'VenueSetupError';
  }
}
