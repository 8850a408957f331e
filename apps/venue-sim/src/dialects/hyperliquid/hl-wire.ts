import { createHash } from 'node:crypto';
import Big from 'big.js';
import type { MarketState } from '../../engine/market-state';
import { usedMargin } from '../../engine/order-validation';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { numericId } from '../engine-ids';
import { decimalsOf, hourlyFundingRate } from '../../api/wire-numbers';

/** The time in force an order was sent with; the engine keeps post-only (Alo, Gtc resting) or IOC. */
export type HlTif = 'Alo' | 'Ioc' | 'Gtc';

/** Book levels per side in an `l2Book` answer, as the venue sends them. */
export const BOOK_LEVELS = 20;

/** The venue's only collateral token on its main perp dex. */
const USDC_TOKEN = {
  name: 'USDC',
  szDecimals: 8,
  weiDecimals: 8,
  index: 0,
  tokenId: '0x6d1e7cde53ba9467b783cb7c530ce054',
  isCanonical: true,
  evmContract: null,
  fullName: null,
};

/** A decimal as the venue prints it: no exponent, no trailing zeros. */
export const plain = (value: Big): string => value.toFixed();

/** Decimals of a step (`0.001` → 3): a market's `szDecimals` is its lot's. */
export { decimalsOf };

/** The markets in the venue's asset order: an order's `a` is an index into this list. */
export function universe(venue: VenueEngine): MarketState[] {
  return venue.profile.markets.map((spec) => venue.market(spec.symbol));
}

export function assetOf(venue: VenueEngine, symbol: string): number {
  return venue.profile.markets.findIndex((spec) => spec.symbol === symbol);
}

/** `{type: 'meta'}`: the perp universe. */
export function meta(venue: VenueEngine) {
  return {
    universe: universe(venue).map(({ spec }) => ({
      szDecimals: decimalsOf(spec.lotSize),
      name: spec.symbol,
      maxLeverage: spec.maxLeverage,
      marginTableId: spec.maxLeverage,
      ...(spec.isolatedOnly ? { onlyIsolated: true } : {}),
    })),
    marginTables: [],
    collateralToken: 0,
  };
}

/** One perp's context in `metaAndAssetCtxs`. Funding is per hour, as the venue quotes it. */
export function assetCtx(market: MarketState, basisBps: number) {
  const mark = market.markPrice();
  const oracle = mark.div(1 + basisBps / 10_000).round(6);
  const bid = market.book.bids.best();
  const ask = market.book.asks.best();
  const mid = bid && ask ? market.price.toBig(bid.priceTicks + ask.priceTicks).div(2) : mark;
  const premium = new Big(basisBps.toFixed(4)).div(10_000);
  return {
    funding: plain(hourlyFundingRate(basisBps).round(8)),
    openInterest: plain(
      new Big(market.spec.openInterestUsd).div(mark).round(decimalsOf(market.spec.lotSize)),
    ),
    prevDayPx: plain(mark),
    dayNtlVlm: String(market.spec.volume24hUsd),
    premium: plain(premium.round(8)),
    oraclePx: plain(oracle),
    markPx: plain(mark),
    midPx: plain(mid),
    impactPxs: [
      plain(bid ? market.price.toBig(bid.priceTicks) : mark),
      plain(ask ? market.price.toBig(ask.priceTicks) : mark),
    ],
    dayBaseVlm: plain(new Big(market.spec.volume24hUsd).div(mark).round(2)),
  };
}

/** `{type: 'spotMeta'}`: the simulated venue lists no spot pairs, only its collateral token. */
export const spotMeta = () => ({ tokens: [USDC_TOKEN], universe: [] });

/** `{type: 'l2Book'}` and the `l2Book` stream: the top levels of each side. */
export function l2Book(market: MarketState, timeMs: number) {
  const side = (book: typeof market.book.bids) =>
    book.top(BOOK_LEVELS).map((level) => ({
      px: plain(market.price.toBig(level.priceTicks)),
      sz: plain(market.lot.toBig(level.totalLots)),
      n: level.orders.length,
    }));
  return {
    coin: market.spec.symbol,
    time: timeMs,
    levels: [side(market.book.bids), side(market.book.asks)],
  };
}

/** An order's status word, as `orderStatus` and `orderUpdates` give it. */
export function hlStatus(order: EngineOrder, tif: HlTif): string {
  switch (order.status) {
    case 'open':
    case 'partially_filled':
      return 'open';
    case 'filled':
      return 'filled';
    case 'canceled':
      // An IOC that took nothing was never an order on the book.
      return tif === 'Ioc' && order.filledLots === 0 ? 'iocCancelRejected' : 'canceled';
  }
}

/** Separates a cloid from its generation in an engine client id (`0x…~2`, see HlState.cloidOrder). */
export const CLOID_GENERATION = '~';

/** The `cloid` the venue echoes: the client's own id, null when it sent none. */
export const cloidOf = (order: { clientOrderId: string }): string | null =>
  order.clientOrderId.startsWith('0x') ? order.clientOrderId.split(CLOID_GENERATION)[0] : null;

/** The fields of a limit order that differ from one order to the next. */
export interface LimitOrderFields {
  coin: string;
  side: 'B' | 'A';
  limitPx: string;
  sz: string;
  oid: number;
  timestamp: number;
  origSz: string;
  tif: HlTif;
  cloid: string | null;
  /** Sent with `r: true` (false when absent). */
  reduceOnly?: boolean;
}

/** A limit order as `frontendOpenOrders` and `orderStatus` describe it. */
export function frontendOrderOf(fields: LimitOrderFields) {
  const { coin, side, limitPx, sz, oid, timestamp, origSz, tif, cloid, reduceOnly } = fields;
  return {
    coin,
    side,
    limitPx,
    sz,
    oid,
    timestamp,
    triggerCondition: 'N/A',
    isTrigger: false,
    triggerPx: '0.0',
    children: [],
    isPositionTpsl: false,
    reduceOnly: reduceOnly ?? false,
    orderType: 'Limit',
    origSz,
    tif,
    cloid,
  };
}

/** An engine order as `frontendOpenOrders` and `orderStatus` describe it. */
export function frontendOrder(venue: VenueEngine, order: EngineOrder, tif: HlTif) {
  const market = venue.market(order.symbol);
  return frontendOrderOf({
    coin: order.symbol,
    side: order.side === 'buy' ? 'B' : 'A',
    limitPx: plain(market.price.toBig(order.priceTicks)),
    sz: plain(market.lot.toBig(order.sizeLots - order.filledLots)),
    oid: numericId(order.orderId),
    timestamp: order.createdAtMs,
    origSz: plain(market.lot.toBig(order.sizeLots)),
    tif,
    cloid: cloidOf(order),
    reduceOnly: order.reduceOnly === true,
  });
}

/** An order as `orderUpdates` streams it (the basic order fields). */
export function wsOrder(venue: VenueEngine, order: EngineOrder, tif: HlTif) {
  const market = venue.market(order.symbol);
  return {
    order: {
      coin: order.symbol,
      side: order.side === 'buy' ? 'B' : 'A',
      limitPx: plain(market.price.toBig(order.priceTicks)),
      sz: plain(market.lot.toBig(order.sizeLots - order.filledLots)),
      oid: numericId(order.orderId),
      timestamp: order.createdAtMs,
      origSz: plain(market.lot.toBig(order.sizeLots)),
      ...(cloidOf(order) ? { cloid: cloidOf(order) } : {}),
    },
    status: hlStatus(order, tif),
    statusTimestamp: order.updatedAtMs,
  };
}

/** The position a fill started from, as `userFills` reports it (`startPosition`, `dir`). */
export interface FillContext {
  startPosition: Big;
  /** Whether the fill names its order's cloid (reading `fill_cloid`). */
  cloid: boolean;
}

/** One of the account's fills as `userFills`, `userFillsByTime` and the `userFills` stream give it. */
export function userFill(venue: VenueEngine, fill: EngineFill, context: FillContext) {
  const market = venue.market(fill.symbol);
  const size = market.lot.toBig(fill.lots);
  const start = context.startPosition;
  return {
    coin: fill.symbol,
    px: plain(market.price.toBig(fill.priceTicks)),
    sz: plain(size),
    side: fill.side === 'buy' ? 'B' : 'A',
    time: fill.tsMs,
    startPosition: plain(start),
    dir: direction(start, fill.side),
    // The engine books realised PnL per account, not per fill.
    closedPnl: '0.0',
    hash: `0x${createHash('sha256').update(fill.fillId).digest('hex')}`,
    oid: numericId(fill.orderId),
    crossed: fill.liquidity === 'taker',
    fee: plain(fill.fee),
    tid: numericId(fill.fillId),
    ...(context.cloid ? { cloid: cloidOf(fill) } : {}),
    feeToken: 'USDC',
    // Not a TWAP slice (the SDK @nktkas/hyperliquid declares `twapId: number | null` on every fill).
    twapId: null,
  };
}

function direction(start: Big, side: 'buy' | 'sell'): string {
  if (side === 'buy') {
    return start.lt(0) ? 'Close Short' : 'Open Long';
  }
  return start.gt(0) ? 'Close Long' : 'Open Short';
}

/** `{type: 'clearinghouseState'}`: margin summary and positions (cross, one-way). */
export function clearinghouseState(
  venue: VenueEngine,
  accountId: string | undefined,
  nowMs: number,
) {
  const account = accountId ? venue.accounts.get(accountId) : undefined;
  const marks = venue.marks();
  let notional = new Big(0);
  const positions = [];
  for (const [symbol, position] of account?.positions ?? []) {
    const market = venue.market(symbol);
    const mark = marks.get(symbol) ?? market.markPrice();
    const value = position.size.abs().times(mark);
    notional = notional.plus(value);
    const leverage = market.spec.maxLeverage;
    const pnl = account!.unrealizedPnl(symbol, mark);
    const margin = value.div(leverage);
    positions.push({
      type: 'oneWay',
      position: {
        coin: symbol,
        szi: plain(position.size),
        leverage: { type: 'cross', value: leverage },
        entryPx: plain(position.entryPrice.round(6)),
        positionValue: plain(value.round(6)),
        unrealizedPnl: plain(pnl.round(6)),
        returnOnEquity: margin.gt(0) ? plain(pnl.div(margin).round(8)) : '0.0',
        liquidationPx: null,
        marginUsed: plain(margin.round(6)),
        maxLeverage: leverage,
        cumFunding: { allTime: '0.0', sinceOpen: '0.0', sinceChange: '0.0' },
      },
    });
  }
  const value = account ? account.equity(marks) : new Big(0);
  const used = accountId && account ? usedMargin(venue, accountId) : new Big(0);
  const summary = {
    accountValue: plain(value.round(6)),
    totalNtlPos: plain(notional.round(6)),
    totalRawUsd: plain(value.round(6)),
    totalMarginUsed: plain(used.round(6)),
  };
  const withdrawable = value.minus(used);
  return {
    marginSummary: summary,
    crossMarginSummary: summary,
    crossMaintenanceMarginUsed: plain(used.div(2).round(6)),
    withdrawable: plain((withdrawable.gt(0) ? withdrawable : new Big(0)).round(6)),
    assetPositions: positions,
    time: nowMs,
  };
}

/** Spot token indexes of the tokens a wallet may hold here (the venue's own: PURR 1, HYPE 150). */
const SPOT_TOKEN_INDEX: Readonly<Record<string, number>> = { USDC: 0, PURR: 1, HYPE: 150 };
const FIRST_UNLISTED_TOKEN = 10_000;

/**
 * `{type: 'spotClearinghouseState'}`: the user's spot tokens, each in its
 * own units (docs `info-endpoint/spot`, "Retrieve a user's token balances").
 * USDC first: under the `default` abstraction the perps' collateral is not a
 * spot balance (0 here); under `unifiedAccount` the spot USDC is the perps'
 * collateral, its `hold` what positions and orders use (ccxt reads this
 * answer then, free = total - hold). Then what else the wallet holds
 * (`holdings`: HYPE, PURR), valued at `prices` where the simulator prices
 * the token.
 */
export function spotClearinghouseState(
  venue: VenueEngine,
  accountId: string | undefined,
  options: {
    unified: boolean;
    holdings: ReadonlyMap<string, Big>;
    priceOf: (token: string) => Big | undefined;
  },
) {
  const account = accountId ? venue.accounts.get(accountId) : undefined;
  const collateral =
    options.unified && account
      ? {
          hold: plain(usedMargin(venue, accountId!).round(6)),
          total: plain(account.equity(venue.marks()).round(6)),
        }
      : { hold: '0.0', total: '0.0' };
  const held = [...options.holdings].map(([coin, amount], i) => ({
    coin,
    token: SPOT_TOKEN_INDEX[coin] ?? FIRST_UNLISTED_TOKEN + i,
    hold: '0.0',
    total: plain(amount),
    entryNtl: plain(amount.times(options.priceOf(coin) ?? 0).round(6)),
  }));
  return { balances: [{ coin: 'USDC', token: 0, ...collateral, entryNtl: '0.0' }, ...held] };
}

/** The venue's id in the simulator. */
export const HYPERLIQUID = 'hyperliquid';
