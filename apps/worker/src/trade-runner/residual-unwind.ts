import Big from 'big.js';
import {
  clientOrderId,
  formatDecimal,
  notFoundMeans,
  residualUnwindPlan,
  type ResidualUnwindPlan,
  settlesBy,
  signOf,
} from '@sts/domain';
import { sleep } from '@sts/platform';
import {
  OrderRejectedError,
  RateLimitedError,
  UnknownOrderError,
  VenueNetworkError,
  isResting,
  venueTookRequest,
  type PlaceOrderRequest,
  type VenueFill,
  type VenueOrder,
} from '@sts/venues';
import { logEntry, type UnwindResult } from '@sts/contracts';
import { paidAtOnce } from '../venue-sessions/paid-requests';
import { feeOfFills } from './hedging/hedge-entries';
import type { OpenTrade } from './open-trade';
import type { Halt } from './runner-services';
import type { TradeView } from './trade-view';

/** What a trade leaves unhedged at its end, and what its unwind took back (base units). */
export interface ResidualEnd {
  residual: Big;
  unwound: Big;
}

const NONE: ResidualEnd = { residual: new Big(0), unwound: new Big(0) };

/**
 * How long the unwind's request may still execute on the venue: a lost one is
 * known unplaced this soon (plus the client's margin).
 */
const UNWIND_LIFETIME_MS = 2_000;
/** Refusals for the account's rate limit are waited out this many times. */
const RATE_LIMITED_RETRIES = 3;
/** Past the time a lost request settles by, look-ups go on this long before the fate is `unknown`. */
const LOOK_UP_GRACE_MS = 10_000;
/** Look-ups of an earlier unwind that fail (not "not found") before the unwind is sent anyway. */
const EARLIER_LOOK_UPS = 3;

/** What became of the unwind IOC. */
type UnwindFate =
  | { kind: 'order'; order: VenueOrder; fills: VenueFill[] }
  | { kind: 'refused'; result: UnwindResult; reason: string };

/**
 * The end of a trade that went quiet (maker order down, fills read back,
 * hedges finished): maker fills the hedge venue's lot or minimums never let
 * be hedged (residual_unhedged) are unwound on the maker venue by one
 * reduce-only IOC on the other side, at a protective limit from the maker
 * touch and the trade's max_slippage, where that venue's minimum allows
 * (decisions 2). `unwind_sent` and `unwind_outcome` go to the log; what the
 * unwind did not take back stays in the wallet and is named on the trade
 * (residual_unhedged less residual_unwound). A failed trade is not unwound:
 * its failure_reason names what its hedge left.
 */
export async function unwindResidual(trade: TradeView): Promise<ResidualEnd> {
  const open = trade.open;
  if (
    !open ||
    !trade.ledger.chunkStarted ||
    (!trade.mayTouchVenue() && !(await trade.untilTrusted()))
  ) {
    return NONE; // nothing was filled, or the lease is lost: its next owner ends the trade
  }
  const residual = open.hedger.residual();
  if (signOf(residual) <= 0 || trade.phase.ending?.kind === 'failed') {
    return { residual, unwound: new Big(0) };
  }
  const { market } = open.legs;
  const plan = residualUnwindPlan({
    makerLeg: trade.record.makerLeg,
    residual,
    makerRules: market.makerMarket.rules,
    makerTouch: market.makerTouch(),
    maxSlippage: trade.terms.maxSlippage,
  });
  switch (plan.kind) {
    case 'none':
      return NONE;
    case 'below_minimum':
    case 'no_price':
      return nameResidual(trade, plan, residual);
    case 'unwind': {
      const halt = trade.haltInForce;
      // Maintenance, the kill switch or a halted venue: no new order goes out, a reduce-only one neither.
      return halt
        ? nameResidual(trade, { kind: 'halted', side: plan.side, halt }, residual)
        : unwind(trade, open, plan, residual);
    }
  }
}

/** Why no unwind is sent: the plan's, or a halt in force on the trade's venues. */
type NoUnwind =
  | Extract<ResidualUnwindPlan, { kind: 'below_minimum' | 'no_price' }>
  | { kind: 'halted'; side: 'buy' | 'sell'; halt: Halt };

/** No order can (or may) take the residual: the trade names it (an unwind_outcome with no order). */
function nameResidual(trade: TradeView, plan: NoUnwind, residual: Big): ResidualEnd {
  const exchange = trade.record.makerExchange;
  const reason = reasonOf(plan, residual, exchange);
  void trade.apply([
    outcomeEntry(exchange, plan.side, residual, { result: plan.kind, reason }, null),
  ]);
  trade.log.warn({ residual_unhedged: formatDecimal(residual), reason }, 'residual not unwound');
  return { residual, unwound: new Big(0) };
}

/**
 * The reduce-only IOC, logged as sent, then with what became of it; or, where
 * the venue already has it (sent by an earlier owner), what became of that one.
 */
async function unwind(
  trade: TradeView,
  open: OpenTrade,
  plan: Extract<ResidualUnwindPlan, { kind: 'unwind' }>,
  residual: Big,
): Promise<ResidualEnd> {
  const exchange = trade.record.makerExchange;
  const { makerMarket } = open.legs.market;
  const request: PlaceOrderRequest = {
    symbol: makerMarket.symbol,
    side: plan.side,
    price: formatDecimal(plan.limit),
    size: formatDecimal(plan.size),
    clientOrderId: clientOrderId(trade.tradeId, { kind: 'unwind', attempt: 1 }),
    lifetimeMs: UNWIND_LIFETIME_MS,
    reduceOnly: true,
  };
  // A takeover that ends the trade again finds the unwind an earlier owner sent (its id is the
  // same): its fate is the venue's record, and it is not sent twice (a venue that refuses the
  // id again would answer `rejected` although that unwind filled).
  let fate = await earlierUnwind(trade, open, request);
  if (fate) {
    trade.log.info(
      { client_order_id: request.clientOrderId },
      'residual unwind already on the venue: its outcome is the venue record',
    );
  } else {
    void trade.apply([
      logEntry('unwind_sent', {
        exchange,
        side: request.side,
        size: request.size,
        price: request.price,
        client_order_id: request.clientOrderId,
        reduce_only: true,
      }),
    ]);
    fate = await sendUnwind(trade, open, request);
  }
  const entry =
    fate.kind === 'order'
      ? filledOutcome(exchange, residual, fate, makerMarket.quote ?? null, request.clientOrderId)
      : outcomeEntry(exchange, plan.side, residual, fate, request.clientOrderId);
  void trade.apply([entry]);
  const unwound = fate.kind === 'order' ? new Big(fate.order.filledSize) : new Big(0);
  trade.log.info(
    {
      residual_unhedged: formatDecimal(residual),
      residual_unwound: formatDecimal(unwound),
      result: entry.data.result,
    },
    'residual unwound on the maker venue',
  );
  return { residual, unwound };
}

function reasonOf(plan: NoUnwind, residual: Big, exchange: string): string {
  switch (plan.kind) {
    case 'below_minimum':
      return `${formatDecimal(residual)} is below ${exchange}'s minimum order${plan.limit ? ` at ${formatDecimal(plan.limit)}` : ''}`;
    case 'no_price':
      return `no ${exchange} book to price an unwind from`;
    case 'halted':
      return `no order while ${plan.halt.reason} holds ${plan.halt.exchange}`;
  }
}

/** Sends the IOC (paid at once: the wallet is one-sided meanwhile) and learns its final state. */
async function sendUnwind(
  trade: TradeView,
  open: OpenTrade,
  request: PlaceOrderRequest,
): Promise<UnwindFate> {
  const client = open.legs.makerClient;
  const bucket = trade.budget.maker;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const ack = await paidAtOnce(bucket, client, () => client.placeIoc(request));
      return isResting(ack.order)
        ? settledOrder(trade, open, request, Date.now() + UNWIND_LIFETIME_MS, ack.fills, {
            seen: true,
          })
        : { kind: 'order', order: ack.order, fills: ack.fills };
    } catch (error) {
      if (error instanceof VenueNetworkError) {
        // The request may have reached the venue: only the venue can say what it did.
        // One the venue named (still queued when its wait ended) is never unplaced by a miss.
        const settles = settlesBy(error.settlesByMs, Date.now());
        return settledOrder(trade, open, request, settles, [], { seen: venueTookRequest(error) });
      }
      if (error instanceof RateLimitedError && attempt < RATE_LIMITED_RETRIES) {
        await sleep(error.retryAfterMs);
        continue;
      }
      if (error instanceof OrderRejectedError && error.reason === 'duplicate_client_order_id') {
        // The venue knows an order by this id (one the look-up before the send missed): its fate.
        return settledOrder(trade, open, request, Date.now(), [], { seen: true });
      }
      const reason = error instanceof OrderRejectedError ? error.reason : String(error);
      trade.log.warn({ err: error }, 'unwind refused');
      return { kind: 'refused', result: 'rejected', reason: `${request.side} refused: ${reason}` };
    }
  }
}

/**
 * An unwind with this client order id the venue already has (an earlier
 * owner's, the trade ending again after a takeover), by its final record: a
 * resting, new or queued one is waited on until it is final (style 18).
 * Null when the venue knows none; a look-up that keeps failing sends the
 * unwind anyway (a duplicate refusal then looks it up again).
 */
async function earlierUnwind(
  trade: TradeView,
  open: OpenTrade,
  request: PlaceOrderRequest,
): Promise<UnwindFate | null> {
  const client = open.legs.makerClient;
  for (let lookUp = 1; lookUp <= EARLIER_LOOK_UPS; lookUp += 1) {
    try {
      const order = await paidAtOnce(trade.budget.maker, client, () =>
        client.order({ clientOrderId: request.clientOrderId, symbol: request.symbol }),
      );
      return isResting(order)
        ? settledOrder(trade, open, request, Date.now(), [], { seen: true })
        : { kind: 'order', order, fills: [] };
    } catch (error) {
      if (error instanceof UnknownOrderError) {
        return null;
      }
      trade.log.warn({ err: error, attempt: lookUp }, 'earlier unwind look-up failed');
      if (!trade.mayTouchVenue() && !(await trade.untilTrusted())) {
        break;
      }
      await sleep(100 * lookUp);
    }
  }
  return null;
}

/**
 * The unwind's final state from the venue, by its client order id: found and
 * no longer resting, it is what the venue says; not found once its request
 * can no longer arrive (`settlesByMs`), it was never placed, unless the venue
 * showed it (`seen`: then only its record settles it). A resting answer, or
 * "not found" before then, settles nothing (style 18).
 */
async function settledOrder(
  trade: TradeView,
  open: OpenTrade,
  request: PlaceOrderRequest,
  settlesByMs: number,
  fills: VenueFill[],
  { seen }: { seen: boolean } = { seen: false },
): Promise<UnwindFate> {
  const client = open.legs.makerClient;
  const giveUpAt = Math.max(settlesByMs, Date.now()) + LOOK_UP_GRACE_MS;
  for (let lookUp = 1; Date.now() < giveUpAt; lookUp += 1) {
    await sleep(Math.min(100 * lookUp, 1_000));
    if (!trade.mayTouchVenue() && !(await trade.untilTrusted())) {
      break;
    }
    try {
      const order = await paidAtOnce(trade.budget.maker, client, () =>
        client.order({ clientOrderId: request.clientOrderId, symbol: request.symbol }),
      );
      if (!isResting(order)) {
        return { kind: 'order', order, fills };
      }
    } catch (error) {
      if (
        error instanceof UnknownOrderError &&
        !seen &&
        notFoundMeans(Date.now(), settlesByMs) === 'never_placed'
      ) {
        return {
          kind: 'refused',
          result: 'not_filled',
          reason: 'the unwind never reached the venue',
        };
      }
    }
  }
  return {
    kind: 'refused',
    result: 'unknown',
    reason: 'the venue did not tell what became of the unwind',
  };
}

/**
 * unwind_outcome of an order the venue answered for, under our client order id
 * (a venue that keeps part of it, Lighter, gives a client that did not place
 * the order only that part).
 */
function filledOutcome(
  exchange: string,
  residual: Big,
  { order, fills }: { order: VenueOrder; fills: VenueFill[] },
  quote: string | null,
  clientOrderId: string,
) {
  const filled = new Big(order.filledSize);
  const result: UnwindResult =
    signOf(filled) <= 0 ? 'not_filled' : filled.gte(residual) ? 'filled' : 'partial';
  const fillsSum = fills.reduce((sum, fill) => sum.plus(fill.size), new Big(0));
  // The fee only when the ack's fills are the whole of what filled (a look-up carries none).
  const fee = signOf(filled) > 0 && fillsSum.eq(filled) ? feeOfFills(fills) : null;
  return logEntry('unwind_outcome', {
    result,
    exchange,
    side: order.side,
    requested_size: formatDecimal(residual),
    filled_size: formatDecimal(filled),
    avg_price: order.averagePrice ?? null,
    order_id: order.orderId,
    client_order_id: clientOrderId,
    fee: fee ? formatDecimal(fee) : null,
    fee_asset: fee ? quote : null,
    reason:
      result === 'filled'
        ? null
        : `${formatDecimal(residual.minus(filled))} found no taker within the limit ${order.price}`,
  });
}

/** unwind_outcome of an unwind that took nothing back (none sent, refused, or of unknown fate). */
function outcomeEntry(
  exchange: string,
  side: 'buy' | 'sell',
  residual: Big,
  fate: { result: UnwindResult; reason: string },
  sentClientOrderId: string | null,
) {
  return logEntry('unwind_outcome', {
    result: fate.result,
    exchange,
    side,
    requested_size: formatDecimal(residual),
    filled_size: '0',
    avg_price: null,
    order_id: null,
    client_order_id: sentClientOrderId,
    fee: null,
    fee_asset: null,
    reason: fate.reason,
  });
}
