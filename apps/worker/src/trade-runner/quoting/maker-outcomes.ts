import Big from 'big.js';
import type { VenueOrderReport } from '@sts/domain';
import {
  OrderRejectedError,
  PostOnlyWouldCrossError,
  RateLimitedError,
  VenueAuthError,
  isVenueHalted,
  type VenueOrder,
} from '@sts/venues';

/** What a maker request came to, for the trade's loop to act on. */
export type MakerOutcome =
  | { kind: 'done' }
  | { kind: 'book_moved' }
  | { kind: 'wait'; ms: number }
  | { kind: 'rejected'; reason: string }
  /** The venue is halted: a pause, not a failure (decisions 3). */
  | { kind: 'halted' }
  | { kind: 'fatal'; reason: string };

/** What the loop does after a refusal. */
export function makerRefusal(venue: string, error: unknown): MakerOutcome {
  if (error instanceof PostOnlyWouldCrossError) {
    return { kind: 'book_moved' };
  }
  return makerRequestFailed(venue, error);
}

/** What the loop does after a failed request (a venue's refusal, a limit, a halt). */
export function makerRequestFailed(venue: string, error: unknown): MakerOutcome {
  if (error instanceof VenueAuthError) {
    return { kind: 'fatal', reason: `${venue} rejected the credentials` };
  }
  if (error instanceof RateLimitedError) {
    return { kind: 'wait', ms: error.retryAfterMs };
  }
  if (isVenueHalted(error)) {
    return { kind: 'halted' };
  }
  if (error instanceof OrderRejectedError) {
    return { kind: 'rejected', reason: error.reason };
  }
  return { kind: 'wait', ms: 250 };
}

export const isClosed = (order: Pick<VenueOrder, 'status'>): boolean =>
  order.status === 'filled' || order.status === 'canceled' || order.status === 'rejected';

/** Most answers to a re-quote report nothing filled: one zero for all (a Big is never changed in place). */
const NOTHING_FILLED = new Big(0);

export const reportOf = (order: Pick<VenueOrder, 'status' | 'filledSize'>): VenueOrderReport => ({
  closed: isClosed(order),
  filledSize: order.filledSize === '0' ? NOTHING_FILLED : new Big(order.filledSize),
});
