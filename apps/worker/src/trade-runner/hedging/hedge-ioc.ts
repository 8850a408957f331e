/**
 * One hedge attempt's IOC: its request (price, size, client order id and
 * life on the venue), its send, what its failure means, and the look-up of
 * one whose answer was lost. HedgeSeries strings attempts together.
 */
import type Big from 'big.js';
import {
  clientOrderId,
  floorToStep,
  meetsVenueMinimums,
  formatDecimal,
  hedgeLimitPrice,
  notFoundMeans,
  settlesBy,
} from '@sts/domain';
import { backoffDelay, sleep } from '@sts/platform';
import {
  OrderRejectedError,
  RateLimitedError,
  UnknownOrderError,
  VenueAuthError,
  VenueNetworkError,
  isVenueHalted,
  type OrderAck,
  type PlaceOrderRequest,
  type VenueOrder,
} from '@sts/venues';
import type { HedgeResult } from '../../execution-log/log-entries';
import { paidAtOnce, paidOnCredit } from '../../venue-sessions/paid-requests';
import type { HedgeContext } from './hedge-context';

/**
 * Each attempt's lifetime on the venue, as a share of hedge_timeout_ms: an
 * attempt whose answer is lost is known unplaced this soon (plus the client's
 * margin) and retried while the hedge may still fill.
 */
const ATTEMPT_LIFETIME_SHARE = 0.25;
const MIN_ATTEMPT_LIFETIME_MS = 250;

/** Sends an attempt's IOC in this turn (its token taken): any further request of it pays its own. */
export function sendIoc(context: HedgeContext, request: PlaceOrderRequest): Promise<OrderAck> {
  const { client } = context.venue;
  return paidOnCredit(context.bucket, 1, client, () => client.placeIoc(request));
}

/** Pause before retrying a hedge for its remainder: short, the position is open meanwhile. */
export const retryDelayMs = (attempt: number): number =>
  backoffDelay(attempt, { baseDelayMs: 25, maxDelayMs: 400 });

/** The next attempt's size for `remainder`: on the lot, or null below the venue's minimums. */
export function retrySize(context: HedgeContext, remainder: Big, started: Big): Big | null {
  const next = floorToStep(remainder, context.venue.leg.rules.lotSize);
  const reference = context.market.hedgeReference() ?? started;
  return next.lte(0) || !meetsVenueMinimums(next, context.venue.leg.rules, reference) ? null : next;
}

/** The IOC of one attempt: at H of the moment (else the hedge's first) less the slippage. */
export function hedgeAttemptRequest(
  context: HedgeContext,
  attempt: { size: Big; attempt: number; cause: string; reference: Big },
): PlaceOrderRequest {
  const { venue } = context;
  const limit = hedgeLimitPrice({
    side: venue.side,
    hedgeReference: context.market.hedgeReference() ?? attempt.reference,
    maxSlippage: context.maxSlippage(),
    tickSize: venue.leg.rules.tickSize,
  });
  return {
    symbol: venue.leg.symbol,
    side: venue.side,
    price: formatDecimal(limit),
    size: formatDecimal(attempt.size),
    clientOrderId: clientOrderId(context.tradeId, {
      kind: 'hedge',
      makerFillId: attempt.cause,
      attempt: attempt.attempt,
    }),
    lifetimeMs: Math.max(
      MIN_ATTEMPT_LIFETIME_MS,
      Math.floor(venue.timeoutMs * ATTEMPT_LIFETIME_SHARE),
    ),
  };
}

/** What a look-up of an IOC whose answer was lost found. */
export type LostIocFate =
  | { kind: 'found'; order: VenueOrder }
  /** Not found once the request could no longer arrive: it never reached the venue. */
  | { kind: 'never_placed' }
  /** The lease is gone (not only untrusted for a moment: that is waited out): the new owner reconciles. */
  | { kind: 'abandoned' }
  /** The hedge no longer waits for this attempt. */
  | { kind: 'dropped' };

/**
 * Asks the venue for an IOC whose answer was lost, by its client order id,
 * until it tells: found, it is what the venue says; not found, it was never
 * placed, but only once `settlesByMs` has passed (epoch ms: the venue refuses
 * the request after it). Until then nothing is concluded from it.
 */
export async function lostIocFate(
  context: HedgeContext,
  request: PlaceOrderRequest,
  settlesByMs: number,
  stillWaiting: () => boolean,
): Promise<LostIocFate> {
  for (let lookUp = 1; stillWaiting(); lookUp += 1) {
    let waitMs = Math.min(100 * lookUp, 1_000);
    try {
      const { client } = context.venue;
      // A look-up is a request of the account like the IOC: paid from the
      // hedge bucket (if metered), on credit like the IOC, the fill being open.
      const order = await paidAtOnce(context.bucket, client, () =>
        client.order({ clientOrderId: request.clientOrderId, symbol: request.symbol }),
      );
      return { kind: 'found', order };
    } catch (error) {
      if (error instanceof UnknownOrderError) {
        const now = Date.now();
        if (notFoundMeans(now, settlesByMs) === 'never_placed') {
          return { kind: 'never_placed' };
        }
        waitMs = Math.max(1, settlesByMs - now);
      } else {
        context.logger.warn(
          { err: error, attempt: lookUp },
          'hedge outcome unknown; asking the venue again',
        );
      }
      if (!context.mayTouchVenue() && !(await context.untilTrusted())) {
        return { kind: 'abandoned' };
      }
    }
    await sleep(waitMs);
  }
  return { kind: 'dropped' };
}

/** What an IOC's failure means for its hedge. */
export type IocRefusal =
  /** The answer was lost: the IOC may have reached the venue; look it up. */
  | { kind: 'lost'; settlesByMs: number }
  /** Nothing filled: retry the remainder after `delayMs`, unless `fatal` ends the hedge. */
  | { kind: 'refused'; delayMs?: number; fatal?: HedgeResult };

/** Classifies an IOC's failure (and tells the trade of a halted venue, logs a refusal). */
export function refusalOf(error: unknown, context: HedgeContext, attempt: number): IocRefusal {
  if (error instanceof VenueNetworkError) {
    return { kind: 'lost', settlesByMs: settlesBy(error.settlesByMs, Date.now()) };
  }
  if (error instanceof VenueAuthError) {
    context.logger.error({ err: error }, 'hedge refused: venue credentials rejected');
    return { kind: 'refused', fatal: 'rejected' };
  }
  if (error instanceof RateLimitedError) {
    return { kind: 'refused', delayMs: error.retryAfterMs };
  }
  if (isVenueHalted(error)) {
    context.onVenueHalted();
  }
  if (error instanceof OrderRejectedError) {
    context.logger.warn({ reason: error.reason, attempt }, 'hedge rejected');
  } else {
    context.logger.warn({ err: error, attempt }, 'hedge failed');
  }
  return { kind: 'refused' };
}
