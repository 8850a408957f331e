import { Logger } from '@nestjs/common';
import type { VenueMarket } from '@sts/venues';
import { MarketCatalog, type MarketSource } from './market-catalog';

const BTC: VenueMarket = {
  canonical: 'BTC',
  contractMultiplier: '1',
  quote: 'USDC',
  marginAsset: 'USDC',
  entry: { symbol: 'BTC', tick_size: '1', lot_size: '0.001', min_size: '0.001' },
};

/** A venue whose list answers when the spec says, counting the reads it was asked for. */
class SlowVenue implements MarketSource {
  readonly venue = 'hyperliquid';
  reads = 0;
  private answer?: (markets: VenueMarket[]) => void;

  markets(): Promise<VenueMarket[]> {
    this.reads += 1;
    return new Promise((resolve) => (this.answer = resolve));
  }

  answerNow(markets: VenueMarket[]): void {
    this.answer?.(markets);
  }
}

describe('MarketCatalog: a read slower than a caller waits', () => {
  // The catalog's warnings and debug lines would go to the console (no app, no pino here).
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('starts reading every list at bootstrap, and a late answer still fills the cache', async () => {
    const venue = new SlowVenue();
    const catalog = new MarketCatalog([venue], 60_000);
    catalog.onApplicationBootstrap();
    expect(venue.reads).toBe(1);

    const first = expect(catalog.venueMarkets('hyperliquid')).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    await jest.advanceTimersByTimeAsync(5_000);
    await first;
    // The caller gave up; the read did not: it answers, and the list is served.
    venue.answerNow([BTC]);
    await jest.advanceTimersByTimeAsync(0);
    const markets = await catalog.venueMarkets('hyperliquid');
    expect(markets.get('BTC')).toEqual([BTC]);
    expect(venue.reads).toBe(1);
  });

  it('joins the read under way instead of starting another', async () => {
    const venue = new SlowVenue();
    const catalog = new MarketCatalog([venue], 60_000);
    const first = catalog.venueMarkets('hyperliquid');
    const second = catalog.venueMarkets('hyperliquid');
    venue.answerNow([BTC]);
    expect((await first).get('BTC')).toEqual([BTC]);
    expect((await second).get('BTC')).toEqual([BTC]);
    expect(venue.reads).toBe(1);
  });

  it('gives up a read unanswered for a minute and reads again', async () => {
    const venue = new SlowVenue();
    const catalog = new MarketCatalog([venue], 60_000);
    const first = expect(catalog.venueMarkets('hyperliquid')).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    await jest.advanceTimersByTimeAsync(60_000);
    await first;
    const second = catalog.venueMarkets('hyperliquid');
    expect(venue.reads).toBe(2);
    venue.answerNow([BTC]);
    expect((await second).get('BTC')).toEqual([BTC]);
  });
});
