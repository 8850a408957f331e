import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { engineTarget } from './aster-client-ids';
import { AsterError } from './aster-errors';
import type { AsterMarketData } from './aster-market-data';
import { integer, parseOrderTarget, required } from './aster-orders';
import * as wire from './aster-wire';

const WEEK_MS = 7 * 86_400_000;

/** The parameters and account of a verified signed request. */
interface SignedParams {
  params: Record<string, string>;
  accountId: string;
}

/** The account's signed reads of its orders (one, the open ones) and its trades, as Aster answers them. */
export class AsterOrderReads {
  constructor(
    private readonly markets: AsterMarketData,
    private readonly tifOf: (order: EngineOrder) => wire.AsterTif,
  ) {}

  find(venue: VenueEngine, call: SignedParams, openOnly: boolean) {
    const { symbol, target } = parseOrderTarget(call.params);
    const order = venue.desk.find(call.accountId, engineTarget(venue, call.accountId, target));
    const open = order.status === 'open' || order.status === 'partially_filled';
    // Closed orders without a fill are kept 7 days (docs, Query Order).
    const forgotten = !open && order.filledLots === 0 && order.createdAtMs + WEEK_MS < Date.now();
    if (order.symbol !== symbol || forgotten || (openOnly && !open)) {
      throw new AsterError('noSuchOrder');
    }
    return wire.asterOrder(venue, order, this.tifOf(order));
  }

  open(venue: VenueEngine, call: SignedParams) {
    const symbol = call.params['symbol'];
    if (symbol !== undefined) {
      this.markets.market(symbol);
    }
    return venue.registry
      .open(call.accountId)
      .filter((order) => symbol === undefined || order.symbol === symbol)
      .sort((a, b) => a.createdAtMs - b.createdAtMs)
      .map((order) => wire.asterOrder(venue, order, this.tifOf(order)));
  }

  /** `symbol` is mandatory; `startTime`/`endTime` inclusive, else the last 7 days; `fromId`; `limit` ≤ 1000. */
  trades(venue: VenueEngine, call: SignedParams) {
    const symbol = required(call.params, 'symbol');
    this.markets.market(symbol);
    const limit = Math.min(integer(call.params, 'limit') ?? 500, 1000);
    const fromId = integer(call.params, 'fromId');
    const endTime = integer(call.params, 'endTime') ?? Date.now();
    const startTime = integer(call.params, 'startTime') ?? endTime - WEEK_MS;
    const trades = venue.registry
      .fillsSince(call.accountId, startTime)
      .filter((fill) => fill.symbol === symbol && fill.tsMs <= endTime)
      .map((fill) => wire.asterTrade(venue, fill))
      .filter((trade) => fromId === undefined || trade.id >= fromId);
    const explicitStart = call.params['startTime'] !== undefined || fromId !== undefined;
    return explicitStart ? trades.slice(0, limit) : trades.slice(-limit);
  }
}
