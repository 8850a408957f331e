import { hourlyFundingRate } from '../../api/wire-numbers';
import type { Simulator } from '../../engine/simulator';
import type { RouteTable } from '../limited-routes';
import { LIGHTER, LighterError } from './lighter-accounts';
import { marketAt, marketIndexOf } from './lighter-markets';
import { USDC_ASSET, lighterOk as ok, marketDetails } from './lighter-views';

/**
 * Lighter's public market data under `api` (`…/api/v1`): markets, the
 * collateral asset, funding rates, a market's book.
 */
export function addMarketRoutes(router: RouteTable, api: string, world: () => Simulator): void {
  const venue = () => world().venue(LIGHTER);
  router.add('GET', `${api}/orderBookDetails`, () =>
    ok({
      order_book_details: [...venue().markets.values()].map((market) =>
        marketDetails(venue(), market),
      ),
      spot_order_book_details: [],
    }),
  );
  router.add('GET', `${api}/assetDetails`, () => ok({ asset_details: [USDC_ASSET] }));
  router.add('GET', `${api}/funding-rates`, () =>
    ok({
      funding_rates: [...venue().markets.values()].map((market) => ({
        market_id: marketIndexOf(venue(), market.spec.symbol),
        exchange: LIGHTER,
        symbol: market.spec.symbol,
        rate: hourlyFundingRate(world().prices.basisBps(LIGHTER, market.spec.symbol))
          .round(8)
          .toFixed(),
      })),
    }),
  );
  router.add('GET', `${api}/orderBookOrders`, (context) => {
    const market = marketAt(venue(), Number(context.query.get('market_id')));
    if (!market) {
      return new LighterError(400, 21602, 'invalid market index').reply();
    }
    const limit = Math.min(Number(context.query.get('limit') ?? 100), 100);
    const side = (book: typeof market.book.bids) =>
      book.top(limit).map((level) => ({
        price: market.price.format(level.priceTicks),
        remaining_base_amount: market.lot.format(level.totalLots),
      }));
    return ok({ asks: side(market.book.asks), bids: side(market.book.bids) });
  });
}
