import Big from 'big.js';
import type { Order } from 'ccxt';
import { settlesBy } from '@sts/domain';
import {
  OrderFateUnknownError,
  OrderRejectedError,
  PostOnlyWouldCrossError,
  UnknownOrderError,
  VenueNetworkError,
  type VenueError,
} from '../errors';
import {
  isResting,
  type BatchAnswer,
  type OrderAck,
  type PlaceOrderRequest,
  type VenueOrder,
} from '../model/orders';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { staleRequestRefusal, toVenueError, unsettled } from './ccxt-errors';
import type { CcxtMarketCache } from './ccxt-market-cache';
import type { CcxtOrderLookup } from './ccxt-order-lookup';
import type { CreateArgs } from './create-order-args';
import { encodeClientOrderId } from './client-order-ids';
import type { OrderRequestExpiry, RequestStamp } from './order-expiry';
import type { OrderTracker } from './order-tracker';
import type { RestingMarkets } from './resting-markets';
import { isFinal } from './ccxt-mapping';
import {
  QUEUED_ACK,
  QUEUE_SETTLE_MS,
  awaitPlacementFate,
  isQueued,
  queuedRefusal,
} from './queued-orders';

/**
 * Parameters a venue's placement carries beyond ccxt's own. Aster's New
 * Order answers ACK unless told (`newOrderRespType`, default "ACK": an order
 * as taken, before matching); RESULT answers an IOC or GTX order's final
 * status (FILLED or EXPIRED) directly (github asterdex/api-docs,
 * V3(Recommended)/EN/aster-finance-futures-api-v3.md, New Order). ccxt
 * 4.5.84 passes unknown params into the signed request.
 */
const PLACEMENT_PARAMS: Readonly<Record<string, Record<string, unknown>>> = {
  aster: { newOrderRespType: 'RESULT' },
};

/** Hyperliquid's answer to an IOC that found nothing to take within its limit. */
const IOC_FOUND_NOTHING = /could not immediately match/i;

/** One placement as sent: its market, the request, our client id as the venue knows it. */
interface Placed {
  unified: string;
  request: PlaceOrderRequest;
  encoded: string;
  /** Our client id as ccxt takes it (Lighter's is a number). */
  sentId: string | number;
  ioc: boolean;
  /** When it was sent and until when the venue may take it. */
  stamp: RequestStamp;
}

export interface CcxtPlacementDeps {
  venue: string;
  exchange: CcxtExchangeLike;
  markets: CcxtMarketCache;
  tracker: OrderTracker;
  lookup: CcxtOrderLookup;
  expiry: OrderRequestExpiry;
  /** Runs before the first resting order on a market where the dead-man switch is per market. */
  beforeRestingOrder?: (unified: string) => Promise<void>;
  /** Where our orders may rest: a post-only holds its market from its sending on. */
  resting: RestingMarkets;
}

/**
 * Placing an order through ccxt: the request sent with our client order id,
 * the venue's answer completed from the request where it leaves fields out,
 * a queued placement (Lighter, a `NEW` Aster order) awaited until it
 * settles, and the refusals that are outcomes (an IOC that found nothing, a
 * duplicate client id) told from the ones that are errors.
 */
export class CcxtPlacement {
  /** ccxt symbols this client placed orders on (fills are read per market where the venue needs it). */
  readonly tradedMarkets = new Set<string>();

  constructor(private readonly deps: CcxtPlacementDeps) {}

  async place(request: PlaceOrderRequest, params: Record<string, unknown>): Promise<OrderAck> {
    const ioc = params['timeInForce'] === 'IOC';
    // A hedge IOC lives its own lifetime on the venue (a fraction of the hedge timeout).
    const placed = this.prepared(request, ioc, this.deps.expiry.stamp('place', request.lifetimeMs));
    if (!ioc && this.deps.beforeRestingOrder) {
      // An IOC never rests: the hedge path waits for nothing here.
      await this.deps.beforeRestingOrder(placed.unified);
    }
    try {
      const order = await this.deps.expiry.createOrder(
        placed.unified,
        createArgs(placed, params, this.deps.venue),
        placed.stamp,
      );
      return await this.answered(order, placed);
    } catch (error) {
      return this.refused(error, placed);
    }
  }

  /**
   * Post-only orders in batched requests (order-expiry.ts `createOrders`):
   * each answered as `place` would answer it alone, from its own status in
   * the batch's answer; a request that failed is every order's failure (a
   * lost answer: each order's fate unknown, settled by its client order id).
   */
  async placeBatch(
    requests: readonly PlaceOrderRequest[],
    params: Record<string, unknown>,
  ): Promise<Array<BatchAnswer<OrderAck>>> {
    const { expiry, venue, beforeRestingOrder } = this.deps;
    const stamp = expiry.stamp('place');
    const placed = requests.map((request) => this.prepared(request, false, stamp));
    for (const unified of new Set(placed.map((one) => one.unified))) {
      await beforeRestingOrder?.(unified);
    }
    const answers = await expiry
      .createOrders(
        placed.map((one) => ({ unified: one.unified, args: createArgs(one, params, venue) })),
        stamp,
      )
      .catch((error: unknown) => placed.map(() => ({ error })));
    return Promise.all(
      placed.map((one, index) =>
        settle(async () => {
          const answer = answers[index]!;
          return 'value' in answer
            ? this.answered(answer.value, one)
            : this.refused(answer.error, one);
        }),
      ),
    );
  }

  /** One placement as it will be sent: its market noted, our client id encoded and remembered. */
  private prepared(request: PlaceOrderRequest, ioc: boolean, stamp: RequestStamp): Placed {
    const { venue, tracker } = this.deps;
    const unified = this.deps.markets.unified(request.symbol);
    this.tradedMarkets.add(unified);
    if (!ioc) {
      this.deps.resting.placing(unified, request.clientOrderId);
    }
    const encoded = encodeClientOrderId(venue, request.clientOrderId);
    tracker.rememberEncoding(request.clientOrderId, encoded);
    return { unified, request, encoded: String(encoded), sentId: encoded, ioc, stamp };
  }

  /** The venue's answer to a placement, settled, as the caller's acknowledgement. */
  private async answered(order: Order, placed: Placed): Promise<OrderAck> {
    const settledOrder = await this.settled(order, placed);
    return { order: this.deps.lookup.seen(settledOrder), fills: [], duplicate: false };
  }

  /**
   * The placement as it stands once the venue has settled it (at once,
   * unless it queues orders). An IOC a queueing venue has not closed within
   * the wait may still fill: its fate is unknown (OrderFateUnknownError), to
   * be settled by looking it up, never taken for what a read showed first.
   */
  private async settled(order: Order, placed: Placed): Promise<Order> {
    const { tracker, lookup, venue } = this.deps;
    const { unified, request, ioc } = placed;
    const queued = QUEUED_ACK.has(venue);
    if (queued && !order.id) {
      // Lighter answers a transaction hash only: what the order did is read
      // from the venue's record of it, found by our client order id.
      const found = await lookup.placedOrder(request.clientOrderId, unified, {
        ioc,
        sentAtMs: placed.stamp.sentAtMs,
      });
      tracker.track(found.id, request.clientOrderId, request.size);
      return this.fateOf(found, placed);
    }
    if (expiredPostOnly(order, placed)) {
      throw new PostOnlyWouldCrossError(
        venue,
        `${venue} expired the post-only order ${String(order.id)} unfilled: it would have crossed`,
      );
    }
    const answered = completePlacement(order, placed);
    if (answered.id) {
      tracker.track(answered.id, request.clientOrderId, request.size);
    }
    if (queued && answered.id && (isQueued(answered) || (ioc && !isFinal(answered)))) {
      return this.fateOf({ ...answered, id: answered.id }, placed);
    }
    return answered;
  }

  /** A queued placement's fate from reads and the stream; an IOC's, final or unknown. */
  private async fateOf(first: Order & { id: string }, placed: Placed): Promise<Order> {
    const { lookup, venue } = this.deps;
    const { id } = first;
    const read = () => lookup.readRecord(id, placed.unified);
    const order = await awaitPlacementFate(venue, first, read, { ioc: placed.ioc });
    this.throwRefusal(order, placed);
    if (placed.ioc && !isFinal(order)) {
      throw new OrderFateUnknownError(
        venue,
        id,
        `${venue} took the IOC ${id} and has not closed it within ${QUEUE_SETTLE_MS} ms`,
        settlesBy(undefined, Date.now()),
      );
    }
    return completePlacement(order, placed);
  }

  private throwRefusal(order: Order, placed: Placed): void {
    const refusal = queuedRefusal(order, this.deps.venue);
    if (refusal) {
      this.deps.resting.settled(placed.request.clientOrderId);
      throw refusal;
    }
  }

  /** A placement that failed: an outcome where the venue's refusal says what happened, else the error. */
  private async refused(error: unknown, placed: Placed): Promise<OrderAck> {
    const { venue, lookup } = this.deps;
    const stale = staleRequestRefusal(error, venue);
    if (stale) {
      throw stale;
    }
    const mapped = toVenueError(error, venue);
    if (mapped instanceof VenueNetworkError) {
      throw unsettled(venue, mapped, this.deps.expiry.settlesByMs(placed.stamp));
    }
    if (placed.ioc && IOC_FOUND_NOTHING.test(mapped.detail)) {
      // Hyperliquid refuses an IOC that found nothing to take, and gives it
      // no order id: it is an IOC that closed unfilled, known by its cloid.
      const unfilled = completePlacement(
        { id: placed.encoded, status: 'canceled', filled: 0 } as Order,
        placed,
      );
      return { order: lookup.seen(unfilled), fills: [], duplicate: false };
    }
    if (!isDuplicate(mapped)) {
      if (mapped instanceof OrderRejectedError || mapped instanceof PostOnlyWouldCrossError) {
        this.deps.resting.settled(placed.request.clientOrderId); // refused: it never rested
      }
      throw mapped;
    }
    const { clientOrderId, symbol } = placed.request;
    const lookUp = () => lookup.order({ clientOrderId, symbol });
    const known = await duplicateOutcome(mapped, lookUp, placed.request);
    return { order: known, fills: [], duplicate: true };
  }
}

/**
 * A duplicate client id refusal as an outcome: the order the venue knows by
 * that id, but only when it is the order requested (market, side, price,
 * size) and still rests. A venue that frees a client id once its order
 * closes (Aster's ids are unique among open orders only; Hyperliquid's
 * reading `duplicate_cloid=refuse_while_open`) or an id reused for another
 * request would otherwise pass another order off as this placement's; then,
 * or when the venue knows no such order, the refusal stands.
 */
async function duplicateOutcome(
  refusal: VenueError,
  lookUp: () => Promise<VenueOrder>,
  request: PlaceOrderRequest,
): Promise<VenueOrder> {
  const known = await lookUp().catch((error: unknown) => {
    throw error instanceof UnknownOrderError ? refusal : error;
  });
  const same =
    known.symbol === request.symbol &&
    known.side === request.side &&
    new Big(known.price).eq(request.price) &&
    new Big(known.size).eq(request.size);
  if (!same || !isResting(known)) {
    throw refusal;
  }
  return known;
}

/**
 * A post-only order the venue took and expired at once with nothing filled:
 * how a Binance-family venue (Aster's GTX, by the `post_only_cross=expire`
 * reading) answers one that would cross. It never rested: the placement was refused.
 */
function expiredPostOnly(order: Order, placed: Placed): boolean {
  const status = (order.info as { status?: unknown } | undefined)?.status;
  return !placed.ioc && status === 'EXPIRED' && new Big(String(order.filled ?? 0)).eq(0);
}

const isDuplicate = (error: VenueError): boolean =>
  error.code === 'rejected' &&
  (error as VenueError & { reason?: string }).reason === 'duplicate_client_order_id';

/**
 * A placement's answer with what the request said where the venue's answer
 * leaves it out: Hyperliquid answers `{resting: {oid}}` or `{filled:
 * {totalSz, avgPx, oid}}`, with no market, side, price or status, and
 * ccxt reads `totalSz` (what filled) as the order's amount: the amount is
 * the size requested. An IOC answered is done: what it did not fill expired.
 */
function completePlacement(order: Order, placed: Placed): Order {
  const { unified, request, encoded, ioc } = placed;
  const amount = Number(request.size);
  const filled = order.filled ?? 0;
  const done = new Big(String(filled)).gte(String(amount));
  return {
    ...order,
    symbol: order.symbol ?? unified,
    side: order.side ?? request.side,
    price: order.price ?? Number(request.price),
    amount,
    filled,
    clientOrderId: order.clientOrderId ?? encoded,
    timeInForce: order.timeInForce ?? (ioc ? 'IOC' : 'PO'),
    postOnly: order.postOnly ?? !ioc,
    status: order.status ?? (done ? 'closed' : ioc ? 'canceled' : 'open'),
    timestamp: order.timestamp ?? Date.now(),
  };
}

/** ccxt's createOrder arguments for a placement, with the venue's own parameters and our client id. */
function createArgs(placed: Placed, params: Record<string, unknown>, venue: string): CreateArgs {
  const { request, sentId } = placed;
  return {
    side: request.side,
    amount: Number(request.size),
    price: Number(request.price),
    params: { ...params, ...PLACEMENT_PARAMS[venue], clientOrderId: sentId },
  };
}

/** A call's answer or its error, as one order of a batch is answered. */
async function settle<T>(call: () => Promise<T>): Promise<BatchAnswer<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}
