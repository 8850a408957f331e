import Big from 'big.js';
import type { Balances, Order, OrderBook, Position, Trade } from 'ccxt';
import type { VenueBalance, VenuePosition } from '../model/account';
import type { BookUpdate } from '../model/book';
import type { OrderStatus, VenueFill, VenueOrder } from '../model/orders';
import { decimal, required, text } from './ccxt-decimal';

export { decimal } from './ccxt-decimal';
export * from './ccxt-market-mapping';

/** ccxt's unified statuses of an order the venue is done with. */
const FINAL_STATUSES = new Set(['closed', 'rejected', 'canceled', 'expired']);

/**
 * Words a venue documents for an order it is done with that ccxt 4.5.84
 * passes on as they are: Hyperliquid's `scheduledCancel` (its dead-man
 * switch fired), Aster's `EXPIRED_IN_MATCH` (self-trade prevention),
 * Lighter's `canceled-*` reasons ccxt's table lacks. Read by their verb.
 */
const RAW_FINAL_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/cancel/i, 'canceled'],
  [/reject/i, 'rejected'],
  [/expire/i, 'expired'],
];

/**
 * The order's status as ccxt unifies it, with the venue words ccxt passes on
 * raw read by their verb. Any other word (Aster's `NEW_ADL`, Hyperliquid's
 * `waitingForFill`) is no fate: the order counts as open until a word that
 * is one comes.
 */
export function unifiedStatusOf(order: Order): string | undefined {
  const status = order.status ?? undefined;
  if (status === undefined || status === 'open' || FINAL_STATUSES.has(status)) {
    return status;
  }
  return RAW_FINAL_WORDS.find(([word]) => word.test(status))?.[1] ?? 'open';
}

/** True when the order's status says the venue is done with it: it will not fill further. */
export const isFinal = (order: Order): boolean => FINAL_STATUSES.has(unifiedStatusOf(order) ?? '');

function statusOf(order: Order): OrderStatus {
  const filled = new Big(String(order.filled ?? 0));
  const status = unifiedStatusOf(order);
  if (status === 'closed') {
    return 'filled';
  }
  if (status === 'rejected') {
    return 'rejected';
  }
  if (status === 'canceled' || status === 'expired') {
    return 'canceled';
  }
  // 'open', or no status at all (some venues answer a placement without one).
  if (status === undefined && order.amount !== undefined && filled.gte(String(order.amount))) {
    return 'filled';
  }
  return filled.gt(0) ? 'partially_filled' : 'open';
}

export function toOrder(
  order: Order,
  exchange: string,
  symbol: string,
  market: string,
  clientOrderId?: string,
): VenueOrder {
  const ioc = (order.timeInForce ?? '').toUpperCase() === 'IOC' || order.type === 'market';
  const mapped: VenueOrder = {
    exchange,
    symbol,
    market,
    orderId: text(order.id, 'order id'),
    clientOrderId: clientOrderId ?? order.clientOrderId ?? '',
    side: order.side === 'sell' ? 'sell' : 'buy',
    type: order.postOnly || !ioc ? 'post_only' : 'ioc',
    price: required(order.price, 'order price'),
    size: required(order.amount, 'order amount'),
    filledSize: decimal(order.filled) ?? '0',
    status: statusOf(order),
    createdAtMs: order.timestamp ?? Date.now(),
    updatedAtMs:
      order.lastUpdateTimestamp ?? order.lastTradeTimestamp ?? order.timestamp ?? Date.now(),
  };
  const average = decimal(order.average);
  if (average !== undefined && new Big(mapped.filledSize).gt(0)) {
    mapped.averagePrice = average;
  }
  return mapped;
}

export interface FillContext {
  exchange: string;
  symbol: string;
  market: string;
  clientOrderId: string;
  fullyFilled: boolean;
}

/**
 * Maker or taker. ccxt 4.5.84 leaves `takerOrMaker` undefined on
 * Hyperliquid's streamed fills (its parseWsTrade drops it); the venue's own
 * `crossed` says it then (crossed = took liquidity).
 */
function liquidityOf(trade: Trade): 'maker' | 'taker' {
  if (trade.takerOrMaker === 'maker' || trade.takerOrMaker === 'taker') {
    return trade.takerOrMaker;
  }
  const crossed = (trade.info as { crossed?: unknown } | undefined)?.crossed;
  return crossed === false ? 'maker' : 'taker';
}

export function toFill(trade: Trade, context: FillContext): VenueFill {
  const fill: VenueFill = {
    exchange: context.exchange,
    symbol: context.symbol,
    market: context.market,
    side: trade.side === 'sell' ? 'sell' : 'buy',
    price: required(trade.price, 'trade price'),
    size: required(trade.amount, 'trade amount'),
    orderId: trade.order ?? '',
    clientOrderId: context.clientOrderId,
    fullyFilled: context.fullyFilled,
    timestampMs: trade.timestamp ?? Date.now(),
    fillId: text(trade.id, 'trade id'),
    liquidity: liquidityOf(trade),
  };
  const fee = decimal(trade.fee?.cost);
  if (fee !== undefined) {
    fill.fee = fee;
  }
  return fill;
}

export function toBook(
  book: OrderBook,
  exchange: string,
  symbol: string,
  market: string,
  depth: number,
  seq: number,
): BookUpdate {
  const levels = (side: OrderBook['bids']) =>
    side.slice(0, depth).map(([price, size]) => ({
      price: required(price, 'book price'),
      size: required(size, 'book size'),
    }));
  const bids = levels(book.bids);
  const asks = levels(book.asks);
  return {
    exchange,
    symbol,
    market,
    seq: book.nonce ?? seq,
    bestBid: bids[0]?.price ?? null,
    bestAsk: asks[0]?.price ?? null,
    bids,
    asks,
    timestampMs: book.timestamp ?? Date.now(),
  };
}

export function toPosition(
  position: Position,
  exchange: string,
  symbol: string,
  market: string,
): VenuePosition | undefined {
  const size = decimal(position.contracts);
  if (size === undefined || new Big(size).eq(0)) {
    return undefined;
  }
  const mapped: VenuePosition = {
    exchange,
    symbol,
    market,
    side: position.side === 'short' ? 'short' : 'long',
    size: new Big(size).abs().toFixed(),
    entryPrice: required(position.entryPrice, 'position entry price'),
  };
  const mark = decimal(position.markPrice);
  if (mark !== undefined) {
    mapped.markPrice = mark;
  }
  const pnl = decimal(position.unrealizedPnl);
  if (pnl !== undefined) {
    mapped.unrealizedPnl = pnl;
  }
  if (position.leverage !== undefined && position.leverage !== null) {
    mapped.leverage = position.leverage;
  }
  if (position.marginMode === 'cross' || position.marginMode === 'isolated') {
    mapped.marginMode = position.marginMode;
  }
  return mapped;
}

export function toBalances(balances: Balances): VenueBalance[] {
  const result: VenueBalance[] = [];
  const skip = new Set(['info', 'timestamp', 'datetime', 'free', 'used', 'total', 'debt']);
  for (const [asset, balance] of Object.entries(balances)) {
    if (skip.has(asset) || !balance || typeof balance !== 'object') {
      continue;
    }
    const total = decimal(balance.total);
    if (total === undefined) {
      continue;
    }
    const entry: VenueBalance = { asset, total, available: decimal(balance.free) ?? total };
    const used = decimal(balance.used);
    if (used !== undefined) {
      entry.marginUsed = used;
    }
    result.push(entry);
  }
  return result;
}

/** The venue's client order id on a fill, where its payload carries one. */
export function venueClientOrderIdOf(trade: Trade): string | undefined {
  const info = (trade.info ?? {}) as Record<string, unknown>;
  for (const key of ['cloid', 'clientOrderId', 'client_id', 'externalId', 'externalOrderId']) {
    const value = info[key];
    if (typeof value === 'string' && value !== '') {
      return value;
    }
  }
  return undefined;
}
