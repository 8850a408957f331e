import { AnswerLost, type HttpReply } from '../../api/http-kit';
import type { RouteTable } from '../limited-routes';
import type { MarketState } from '../../engine/market-state';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { AsterError, toAsterError } from './aster-errors';
import { rateLimitsInfo } from './aster-rate-limits';
import * as wire from './aster-wire';

export const ASTER = 'aster';
const BASE = `/dialects/${ASTER}`;
const DEPTH_LIMITS = new Set([5, 10, 20, 50, 100, 500, 1000]);

/**
 * Aster's public market data (`/fapi/v1|v3/...`: ping, time, exchangeInfo,
 * depth, premiumIndex, fundingInfo, ticker/24hr, and the spot exchangeInfo
 * ccxt loads), and the markets a signed request names.
 */
export class AsterMarketData {
  constructor(private readonly deps: DialectDeps) {}

  addRoutes(router: RouteTable): void {
    const pub = (path: string, handler: (query: URLSearchParams) => unknown): void => {
      for (const version of ['v1', 'v3']) {
        router.add('GET', `${BASE}/fapi/${version}/${path}`, (context) =>
          this.answer(() => ({ status: 200, body: handler(context.query) })),
        );
      }
    };
    pub('ping', () => ({}));
    pub('time', () => ({ serverTime: Date.now() }));
    pub('exchangeInfo', () =>
      wire.exchangeInfo(this.venue(), Date.now(), rateLimitsInfo(this.deps.limits.of(ASTER))),
    );
    pub('depth', (query) => this.depth(query));
    pub('premiumIndex', (query) => this.eachMarket(query, (m) => this.premium(m)));
    pub('fundingInfo', (query) =>
      this.marketsOf(query).map((m) => wire.fundingInfo(m, Date.now())),
    );
    pub('ticker/24hr', (query) => this.eachMarket(query, (m) => wire.ticker24hr(m, Date.now())));
    // ccxt loads spot markets too; the simulated Aster lists none.
    router.add('GET', `${BASE}/api/v3/exchangeInfo`, () => ({
      status: 200,
      body: {
        timezone: 'UTC',
        serverTime: Date.now(),
        rateLimits: [],
        exchangeFilters: [],
        assets: [],
        symbols: [],
      },
    }));
  }

  private depth(query: URLSearchParams) {
    const market = this.market(query.get('symbol') ?? '');
    const limit = Number(query.get('limit') ?? 500);
    if (!DEPTH_LIMITS.has(limit)) {
      throw new AsterError('invalidParameter', ['limit']);
    }
    return wire.depthSnapshot(market, limit, Date.now());
  }

  private premium(market: MarketState) {
    const basisBps = this.deps.world().prices.basisBps(ASTER, market.spec.symbol);
    return wire.premiumIndex(market, basisBps, Date.now());
  }

  /** One entry for `symbol`, or the list of every market without it. */
  eachMarket<T>(query: URLSearchParams, entry: (market: MarketState) => T): T | T[] {
    const symbol = query.get('symbol');
    return symbol ? entry(this.market(symbol)) : [...this.venue().markets.values()].map(entry);
  }

  marketsOf(query: URLSearchParams): MarketState[] {
    const symbol = query.get('symbol');
    return symbol ? [this.market(symbol)] : [...this.venue().markets.values()];
  }

  market(symbol: string): MarketState {
    const market = this.venue().markets.get(symbol);
    if (!market) {
      throw new AsterError('badSymbol');
    }
    return market;
  }

  venue(): VenueEngine {
    return this.deps.world().venue(ASTER);
  }

  /** A public answer, its refusals in Aster's words. */
  private answer(reply: () => HttpReply): HttpReply {
    try {
      return reply();
    } catch (error) {
      const refusal = toAsterError(error);
      if (refusal instanceof AnswerLost) {
        throw refusal;
      }
      return refusal.reply();
    }
  }
}
