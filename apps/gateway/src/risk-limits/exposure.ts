import Big from 'big.js';
import type { SizeType } from '@sts/domain';
import type { LiveTermsRow } from '@sts/persistence';
import type { MarketMids, TradeVenues } from './market-mids';

/**
 * What a user's live trades (pending, validating, active, paused,
 * recovering) hold against their limits: each trade's whole target, valued
 * now, not what is left of it (a trade's fills stay open positions on the
 * venues when it ends, and the target is what the trader asked to put on).
 */
export interface Exposure {
  /** USD. */
  openNotional: Big;
  /** USD per canonical market. */
  byMarket: Map<string, Big>;
  liveTrades: number;
}

/** A target in USD: a `notional` target as it is, a `base` one at the venues' mid. */
export async function targetNotional(
  sizeType: SizeType,
  targetSize: Big,
  mid: () => Promise<Big>,
): Promise<Big> {
  switch (sizeType) {
    case 'notional':
      return targetSize;
    case 'base':
      return targetSize.times(await mid());
  }
}

/** The user's live trades as their limits count them, base targets valued at the current mids. */
export async function exposureOf(rows: LiveTermsRow[], mids: MarketMids): Promise<Exposure> {
  const byMarket = new Map<string, Big>();
  let openNotional = new Big(0);
  let liveTrades = 0;
  for (const row of rows) {
    const venues: TradeVenues = {
      market: row.market,
      longExchange: row.long_exchange,
      shortExchange: row.short_exchange,
    };
    const notional = await targetNotional(row.size_type as SizeType, new Big(row.target_size), () =>
      mids.midOf(venues),
    );
    openNotional = openNotional.plus(notional);
    byMarket.set(row.market, (byMarket.get(row.market) ?? new Big(0)).plus(notional));
    liveTrades += row.trades;
  }
  return { openNotional, byMarket, liveTrades };
}
