/**
 * One hedge attempt's IOC: its request (price, size, client order id and
 * life on the venue), its send, what its failure means, and the look-up of
 * one whose answer was lost. HedgeSeries strings attempts together.
 */
import Big from 'big.js';
import {
  averageFillPrice,
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
  isResting,
  isVenueHalted,
  venueTookRequest,
  type OrderAck,
  type PlaceOrderRequest,
  type VenueOrder,
} from '@sts/venues';
import type { HedgeResult } from '@sts/contracts';
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

/** What a look-up of an IOC whose fate is unknown found. */
export type LostIocFate =
  /** The venue's final record of it (filled, canceled, expired, rejected). */
  | { kind: 'found'; order: VenueOrder }
  /**
   * What the venue's fills of it show: read once no record of it could be
   * (the hedge timed out with its fate unknown, or every look-up missed an
   * IOC that filled). `ack.order` is made of those fills alone.
   */
  | { kind: 'fills'; ack: OrderAck; position: string | null }
  /** Not found once the request could no longer arrive, and no fill of it: it never reached the venue. */
  | { kind: 'never_placed' }
  /** The lease is gone (not only untrusted for a moment: that is waited out): the new owner reconciles. */
  | { kind: 'abandoned' }
  /** The hedge no longer waits for this attempt. */
  | { kind: 'dropped' };

/** What the look-up of an attempt knows besides its request. */
export interface LostIoc {
  request: PlaceOrderRequest;
  /** Epoch ms after which the request can no longer reach the venue's engine. */
  settlesByMs: number;
  /** True when the venue took the request (it named the order): a miss never means unplaced. */
  accepted: boolean;
  /** Epoch ms when the attempt was sent: its fills are read from a little before. */
  sentAtMs: number;
  /** Whether the look-up still matters to the hedge. */
  stillWaiting: () => boolean;
  /** Whether hedge_timeout_ms has passed. */
  timedOut: () => boolean;
}

/** An IOC's record is its fate only once the venue is done with it; resting, new or queued it may still fill. */
const isFinalRecord = (order: VenueOrder): boolean => !isResting(order);

/**
 * After hedge_timeout_ms, how long a look-up goes on asking for the record of
 * an attempt whose fate is unknown before the venue's fills of it are taken
 * as all it did.
 */
export const FATE_AFTER_TIMEOUT_MS = 1_000;

/** Fills of an attempt are read from this long before its send (the venue's clock may lag ours). */
const FILL_WINDOW_MARGIN_MS = 5_000;

/**
 * Asks the venue for an IOC whose fate is unknown (its answer lost, or the
 * venue still holding it queued), by its client order id, until the venue
 * tells a fate: its record once final; "not found" only once `settlesByMs`
 * has passed, for a request the venue never acknowledged nor showed, and
 * with no fill of it either (a history that lags may miss an IOC that
 * filled). A resting, new, pending or queued record is no fate: it may
 * still fill, so nothing is concluded and no further attempt is sent. Once
 * the hedge has timed out and the record still tells nothing, the venue's
 * fills of the attempt are what it did.
 */
export async function lostIocFate(context: HedgeContext, lost: LostIoc): Promise<LostIocFate> {
  let seen = lost.accepted;
  let timedOutAtMs: number | null = null;
  for (let lookUp = 1; lost.stillWaiting(); lookUp += 1) {
    let waitMs = Math.min(100 * lookUp, 1_000);
    try {
      const order = await lookUpIoc(context, lost.request);
      if (isFinalRecord(order)) {
        return { kind: 'found', order };
      }
      seen = true;
    } catch (error) {
      if (error instanceof UnknownOrderError && !seen) {
        const now = Date.now();
        if (notFoundMeans(now, lost.settlesByMs) === 'never_placed') {
          return unplacedUnlessFilled(context, lost);
        }
        waitMs = Math.max(1, lost.settlesByMs - now);
      } else if (!(error instanceof UnknownOrderError)) {
        context.logger.warn(
          { err: error, attempt: lookUp },
          'hedge outcome unknown; asking the venue again',
        );
      }
      if (!context.mayTouchVenue() && !(await context.untilTrusted())) {
        return { kind: 'abandoned' };
      }
    }
    if (lost.timedOut()) {
      timedOutAtMs ??= Date.now();
      if (Date.now() - timedOutAtMs >= FATE_AFTER_TIMEOUT_MS) {
        const ack = await fillsOfAttempt(context, lost);
        return { kind: 'fills', ack, position: await positionIn(context, lost.request.symbol) };
      }
      waitMs = Math.min(waitMs, FATE_AFTER_TIMEOUT_MS);
    }
    await sleep(waitMs);
  }
  return { kind: 'dropped' };
}

/** One look-up of an attempt by its client order id, paid like the IOC. */
function lookUpIoc(context: HedgeContext, request: PlaceOrderRequest): Promise<VenueOrder> {
  const { client } = context.venue;
  // A look-up is a request of the account like the IOC: paid from the hedge
  // bucket (if metered), on credit like the IOC, the fill being open.
  return paidAtOnce(context.bucket, client, () =>
    client.order({ clientOrderId: request.clientOrderId, symbol: request.symbol }),
  );
}

/** Never placed, unless the venue's fills show the IOC filled (its record missed by a lagging read). */
async function unplacedUnlessFilled(context: HedgeContext, lost: LostIoc): Promise<LostIocFate> {
  const ack = await fillsOfAttempt(context, lost);
  if (ack.fills.length === 0) {
    return { kind: 'never_placed' };
  }
  return { kind: 'fills', ack, position: await positionIn(context, lost.request.symbol) };
}

/**
 * The hedge account's position in the market as the venue reports it (signed:
 * short negative), logged beside a fate settled from fills; null when unread.
 */
async function positionIn(context: HedgeContext, symbol: string): Promise<string | null> {
  const { client } = context.venue;
  try {
    const positions = await paidAtOnce(context.bucket, client, () => client.positions());
    const held = positions.find((position) => position.symbol === symbol);
    if (!held) {
      return '0';
    }
    return formatDecimal(held.side === 'short' ? new Big(held.size).neg() : new Big(held.size));
  } catch (error) {
    context.logger.warn({ err: error, symbol }, 'hedge account position unread');
    return null;
  }
}

/**
 * The venue's fills of one attempt (by its client order id, from a little
 * before it was sent), as an order made of them alone: filled when they
 * reach its size, else closed with what they filled.
 */
async function fillsOfAttempt(context: HedgeContext, lost: LostIoc): Promise<OrderAck> {
  const { client } = context.venue;
  const { request } = lost;
  const since = lost.sentAtMs - FILL_WINDOW_MARGIN_MS;
  const all = await paidAtOnce(context.bucket, client, () =>
    client.fillsSince(since, request.symbol),
  );
  const fills = all.filter((fill) => fill.clientOrderId === request.clientOrderId);
  const filled = fills.reduce((sum, fill) => sum.plus(fill.size), new Big(0));
  const price = averageFillPrice(
    fills.map((fill) => ({ price: new Big(fill.price), size: new Big(fill.size) })),
  );
  const order: VenueOrder = {
    exchange: client.venue,
    symbol: request.symbol,
    market: fills[0]?.market ?? request.symbol,
    orderId: fills[0]?.orderId ?? '',
    clientOrderId: request.clientOrderId,
    side: request.side,
    type: 'ioc',
    price: request.price,
    size: request.size,
    filledSize: formatDecimal(filled),
    ...(price ? { averagePrice: formatDecimal(price) } : {}),
    status: filled.gte(request.size) ? 'filled' : 'canceled',
    createdAtMs: lost.sentAtMs,
    updatedAtMs: Date.now(),
  };
  context.logger.warn(
    { clientOrderId: request.clientOrderId, fills: fills.length, filled: order.filledSize },
    'hedge attempt settled from the venue fills of it',
  );
  return { order, fills, duplicate: false };
}

/**
 * When a lost IOC has landed or never will: the bound its venue gives, or,
 * where the venue bounds no request (Extended, Lighter), the worker's
 * `WORKER_UNBOUNDED_REQUEST_WAIT_MS`, as a takeover waits for a dead
 * worker's requests there.
 */
function lostSettlesBy(context: HedgeContext, error: VenueNetworkError): number {
  const { venue } = context;
  if (venue.client.orderRequestLifetimeMs === null) {
    return Date.now() + venue.unboundedRequestWaitMs;
  }
  return settlesBy(error.settlesByMs, Date.now());
}

/** What an IOC's failure means for its hedge. */
export type IocRefusal =
  /** The answer was lost, or the venue has not closed the IOC yet: look it up. */
  | { kind: 'lost'; settlesByMs: number; accepted: boolean }
  /** Nothing filled: retry the remainder after `delayMs`, unless `fatal` ends the hedge. */
  | { kind: 'refused'; delayMs?: number; fatal?: HedgeResult };

/** Classifies an IOC's failure (and tells the trade of a halted venue, logs a refusal). */
export function refusalOf(error: unknown, context: HedgeContext, attempt: number): IocRefusal {
  if (error instanceof VenueNetworkError) {
    return {
      kind: 'lost',
      settlesByMs: lostSettlesBy(context, error),
      accepted: venueTookRequest(error),
    };
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
