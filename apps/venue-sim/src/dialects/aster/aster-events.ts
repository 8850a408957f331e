import { asterClientId } from './aster-client-ids';
import type { MarketState } from '../../engine/market-state';
import type { BookDelta } from '../../engine/order-book';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import {
  averagePrice,
  levels,
  numericId,
  updateRange,
  walletBalance,
  type AsterOrderStatus,
  type AsterTif,
} from './aster-wire';

/** A depth stream: the diff stream (`<symbol>@depth`) or the top N levels (`@depth5|10|20`). */
export interface DepthStream {
  symbol: string;
  /** Undefined for the diff stream. */
  levels?: number;
}

const DEPTH_STREAM = /^([a-z0-9]+)@depth(5|10|20)?(?:@(?:100|250|500)ms)?$/;

/** The depth stream a stream name names, or undefined for any other stream. */
export function parseDepthStream(name: string): DepthStream | undefined {
  const match = DEPTH_STREAM.exec(name);
  if (!match) {
    return undefined;
  }
  return { symbol: match[1].toUpperCase(), ...(match[2] ? { levels: Number(match[2]) } : {}) };
}

/** A `depthUpdate` event: the changed levels (diff stream) or the top levels (partial stream). */
export function depthEvent(
  market: MarketState,
  stream: DepthStream,
  seq: number,
  tsMs: number,
  delta?: BookDelta,
) {
  const format = (changes: BookDelta['bids']): string[][] =>
    changes.map(([ticks, lots]) => [market.price.format(ticks), market.lot.format(lots)]);
  const partial = stream.levels !== undefined || !delta;
  const depth = stream.levels ?? 1000;
  return {
    e: 'depthUpdate',
    E: Date.now(),
    T: tsMs,
    s: market.spec.symbol,
    ...updateRange(seq),
    b: partial ? levels(market, 'bids', depth) : format(delta.bids),
    a: partial ? levels(market, 'asks', depth) : format(delta.asks),
  };
}

/** One execution of an order, as `ORDER_TRADE_UPDATE` reports it. */
export interface Execution {
  type: 'NEW' | 'TRADE' | 'CANCELED' | 'EXPIRED';
  status: AsterOrderStatus;
  fill?: EngineFill;
}

export function orderTradeUpdate(
  venue: VenueEngine,
  order: EngineOrder,
  tif: AsterTif,
  execution: Execution,
) {
  const market = venue.market(order.symbol);
  const { fill } = execution;
  const tsMs = fill?.tsMs ?? order.updatedAtMs;
  return {
    e: 'ORDER_TRADE_UPDATE',
    E: Date.now(),
    T: tsMs,
    o: {
      s: order.symbol,
      c: asterClientId(order.clientOrderId),
      S: order.side === 'buy' ? 'BUY' : 'SELL',
      o: 'LIMIT',
      f: tif,
      q: market.lot.format(order.sizeLots),
      p: market.price.format(order.priceTicks),
      ap: averagePrice(market, order),
      sp: '0',
      x: execution.type,
      X: execution.status,
      i: numericId(order.orderId),
      l: fill ? market.lot.format(fill.lots) : '0',
      z: market.lot.format(order.filledLots),
      L: fill ? market.price.format(fill.priceTicks) : '0',
      ...(fill ? { N: market.spec.quote, n: fill.fee.toFixed() } : {}),
      T: tsMs,
      t: fill ? numericId(fill.fillId) : 0,
      b: '0',
      a: '0',
      m: fill?.liquidity === 'maker',
      R: order.reduceOnly === true,
      wt: 'CONTRACT_PRICE',
      ot: 'LIMIT',
      ps: 'BOTH',
      cp: false,
      rp: '0',
    },
  };
}

/** `ACCOUNT_UPDATE` after a fill: the wallet balance and the position of the market traded. */
export function accountUpdate(venue: VenueEngine, fill: EngineFill) {
  const account = venue.account(fill.accountId);
  const market = venue.market(fill.symbol);
  const position = account.positions.get(fill.symbol);
  const mark = market.markPrice();
  const wallet = walletBalance(venue, fill.accountId).round(8).toFixed(8);
  return {
    e: 'ACCOUNT_UPDATE',
    E: Date.now(),
    T: fill.tsMs,
    a: {
      m: 'ORDER',
      B: [{ a: venue.profile.markets[0]?.quote ?? 'USDT', wb: wallet, cw: wallet, bc: '0' }],
      P: [
        {
          s: fill.symbol,
          pa: position ? position.size.toFixed() : '0',
          ep: position ? position.entryPrice.round(8).toFixed() : '0',
          cr: '0',
          up: account.unrealizedPnl(fill.symbol, mark).round(8).toFixed(),
          mt: 'cross',
          iw: '0',
          ps: 'BOTH',
          ma: market.spec.quote,
        },
      ],
    },
  };
}
