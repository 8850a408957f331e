import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { maxOf, tradeCosts, type MakerLeg, type SpreadType } from '@sts/domain';
import { TradeEventRepository } from '@sts/persistence';
import { MarketCatalog } from '../../markets/market-catalog';
import type { PresentedTrade } from '../trade.presenter';
import { loggedCosts } from './logged-costs';
import { presentTradeCosts, type TradeCostsView } from './trade-costs.presenter';

/** The log entries costs are computed from. */
const COST_EVENT_TYPES = ['maker_fill', 'hedge_filled', 'hedge_outcome'] as const;

/** What the cost math needs of the trade's market: the tick (for `ticks`) and each leg's quote. */
interface MarketTerms {
  coarserTickSize: Big | null;
  quote: { long: string | null; short: string | null };
}

const UNKNOWN_MARKET: MarketTerms = { coarserTickSize: null, quote: { long: null, short: null } };

export type CostedTrade = Pick<
  PresentedTrade,
  'id' | 'market' | 'longExchange' | 'shortExchange' | 'makerLeg' | 'spreadType' | 'lastSequence'
>;

/**
 * Reads trades' execution logs and works out their costs and results
 * (issue 34): the venues' own fills, as the worker logged them.
 */
@Injectable()
export class TradeCostsReader {
  private readonly events: TradeEventRepository;

  constructor(
    dataSource: DataSource,
    private readonly markets: MarketCatalog,
  ) {
    this.events = new TradeEventRepository(dataSource.manager);
  }

  /** Each trade's costs, by trade id. */
  async costsOf(trades: readonly CostedTrade[]): Promise<Map<string, TradeCostsView>> {
    // Entries are only ever added with the trade's last_sequence (APPEND_SQL, one
    // statement): a trade at 0 has an empty log, and a GET of it reads one statement.
    const withLog = trades.filter((trade) => trade.lastSequence > 0);
    const entries = await this.events.entriesOf(
      withLog.map((trade) => trade.id),
      COST_EVENT_TYPES,
    );
    const costs = new Map<string, TradeCostsView>();
    for (const trade of trades) {
      const logged = (entries.get(trade.id) ?? []).map(({ entry }) => entry);
      const terms = logged.length > 0 ? await this.marketTerms(trade) : UNKNOWN_MARKET;
      const fills = loggedCosts(trade.makerLeg as MakerLeg, logged);
      costs.set(
        trade.id,
        presentTradeCosts(
          tradeCosts({
            makerLeg: trade.makerLeg as MakerLeg,
            spreadType: trade.spreadType as SpreadType,
            ...terms,
            ...fills,
          }),
        ),
      );
    }
    return costs;
  }

  /** From the market catalog (cached); a market it cannot resolve leaves what depends on it null. */
  private async marketTerms(trade: CostedTrade): Promise<MarketTerms> {
    try {
      const { long, short } = await this.markets.resolveTradeable(
        trade.market,
        trade.longExchange,
        trade.shortExchange,
      );
      return {
        coarserTickSize: maxOf(new Big(long.entry.tick_size), new Big(short.entry.tick_size)),
        quote: { long: long.quote, short: short.quote },
      };
    } catch {
      return UNKNOWN_MARKET;
    }
  }
}
