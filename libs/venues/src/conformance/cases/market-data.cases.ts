import Big from 'big.js';
import type { SuiteContext } from '../suite-context';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Market metadata and the book stream. */
export function marketDataCases(ctx: SuiteContext): void {
  it('lists markets with canonical symbols and the required per-exchange fields', async () => {
    const { client, market } = ctx;
    const markets = await client.markets();
    expect(markets.length).toBeGreaterThan(0);
    for (const entry of markets) {
      expect(entry.canonical).toMatch(/^[0-9A-Z]+$/);
      expect(entry.entry.tick_size).toMatch(DECIMAL);
      expect(entry.entry.lot_size).toMatch(DECIMAL);
      expect(entry.entry.min_size).toMatch(DECIMAL);
      expect(Object.values(entry.entry)).not.toContain(null);
      expect(Object.values(entry.entry)).not.toContain(undefined);
    }
    expect(market).toBeDefined();
  });

  it('streams a book snapshot, then sequenced deltas', async () => {
    const { client, harness, log, size, nextId, book, farBid } = ctx;
    const first = await book();
    expect(new Big(first.bestBid!).lt(first.bestAsk!)).toBe(true);
    expect(first.bids.length).toBeGreaterThan(1);
    expect(first.bids[0].price).toBe(first.bestBid);
    expect(new Big(first.bids[0].price).gt(first.bids[1].price)).toBe(true);
    expect(new Big(first.asks[0].price).lt(first.asks[1].price)).toBe(true);
    await harness.driver.advance();
    const id = nextId();
    await client.placePostOnly({
      symbol: harness.symbol,
      side: 'buy',
      price: await farBid(),
      size,
      clientOrderId: id,
    });
    const later = await log.waitFor(
      'book',
      (update) => update.symbol === harness.symbol && update.seq > first.seq,
    );
    expect(later.seq).toBeGreaterThan(first.seq);
  });
}
