import Big from 'big.js';
import { ASSETS } from '../config/assets';
import { VENUE_PROFILES } from '../config/venue-profiles';
import { Simulator } from './simulator';
import { RANDOM_FLOW, type InformedFlow } from './trade-flow';
import { SimError, type EngineFill, type EngineOrder, type EngineSink } from './types';

interface Recorded {
  books: string[];
  fills: EngineFill[];
  orders: Array<Pick<EngineOrder, 'orderId' | 'status' | 'filledLots'>>;
}

function world(
  seed: number,
  informed: Readonly<Record<string, InformedFlow>> = {},
): { sim: Simulator; log: Recorded } {
  const log: Recorded = { books: [], fills: [], orders: [] };
  let clock = 1_700_000_000_000;
  const sink: EngineSink = {
    book: (venue, symbol, delta) => log.books.push(`${venue}:${symbol}:${JSON.stringify(delta)}`),
    fill: (_venue, fill) => log.fills.push(fill),
    order: (_venue, order) =>
      log.orders.push({
        orderId: order.orderId,
        status: order.status,
        filledLots: order.filledLots,
      }),
  };
  const sim = new Simulator({
    seed,
    venues: VENUE_PROFILES,
    assets: ASSETS,
    now: () => (clock += 1),
    sink,
    informedFlow: (venue) => informed[venue] ?? RANDOM_FLOW,
  });
  return { sim, log };
}

const touch = (sim: Simulator, venue: string, symbol: string) => {
  const market = sim.venue(venue).market(symbol);
  const bid = market.book.bids.best();
  const ask = market.book.asks.best();
  return {
    bid: market.price.format(bid!.priceTicks),
    ask: market.price.format(ask!.priceTicks),
    bidTicks: bid!.priceTicks,
    askTicks: ask!.priceTicks,
    tick: market.price,
  };
};

describe('Simulator', () => {
  it('quotes every market of every venue with a two-sided book', () => {
    const { sim } = world(7);
    for (const venue of sim.venues.values()) {
      for (const market of venue.markets.values()) {
        expect(market.book.bids.depth).toBe(venue.profile.levels);
        expect(market.book.asks.depth).toBe(venue.profile.levels);
        expect(market.book.bids.best()!.priceTicks).toBeLessThan(
          market.book.asks.best()!.priceTicks,
        );
      }
    }
  });

  it('gives the same books and fills for the same seed, and different ones for another seed', () => {
    const run = (seed: number): Recorded => {
      const { sim, log } = world(seed);
      const desk = sim.venue('paradex').desk;
      const { bid } = touch(sim, 'paradex', 'ETH-USD-PERP');
      desk.place('0xa', {
        symbol: 'ETH-USD-PERP',
        side: 'buy',
        type: 'post_only',
        price: bid,
        size: '0.5',
        clientOrderId: 'c1',
      });
      sim.step(300);
      return log;
    };
    const first = run(42);
    const second = run(42);
    expect(second.books).toEqual(first.books);
    expect(second.fills).toEqual(first.fills);
    expect(first.books.length).toBeGreaterThan(1000);
    expect(run(43).books).not.toEqual(first.books);
  });

  it('keeps one fair price path when informed takers look ahead, and the random venues as they were', () => {
    const run = (informed: boolean) => {
      const { sim, log } = world(
        11,
        informed ? { hyperliquid: { share: 1, horizonMs: 60_000 } } : {},
      );
      const path: number[] = [];
      for (let i = 0; i < 400; i += 1) {
        sim.step();
        path.push(sim.prices.fairPrice('BTC'), sim.prices.fairPrice('PEPE'));
      }
      return { path, books: log.books.filter((book) => !book.startsWith('hyperliquid:')), log };
    };
    const random = run(false);
    const informed = run(true);
    expect(informed.path).toEqual(random.path);
    expect(informed.books).toEqual(random.books);
    expect(informed.log.books).not.toEqual(random.log.books);
    // Informed takers are part of the seed's promise too.
    expect(run(true).log.books).toEqual(informed.log.books);
  });

  it('rejects a post-only order that would cross and rests one that would not', () => {
    const { sim } = world(1);
    const desk = sim.venue('aster').desk;
    const { ask, bidTicks, tick } = touch(sim, 'aster', 'BTCUSDT');
    expect(() =>
      desk.place('0xa', {
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'post_only',
        price: ask,
        size: '0.01',
        clientOrderId: 'x',
      }),
    ).toThrow(expect.objectContaining({ code: 'post_only_would_cross' }));
    const inside = tick.format(bidTicks + 1);
    const { order } = desk.place('0xa', {
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'post_only',
      price: inside,
      size: '0.01',
      clientOrderId: 'y',
    });
    expect(order.status).toBe('open');
    expect(touch(sim, 'aster', 'BTCUSDT').bid).toBe(inside);
  });

  it('fills a resting maker order partially, then fully, as the market trades through it', () => {
    const { sim, log } = world(2);
    const venue = sim.venue('lighter');
    const { bidTicks, tick } = touch(sim, 'lighter', 'SOL');
    const price = tick.format(bidTicks + 1);
    venue.desk.place('0xm', {
      symbol: 'SOL',
      side: 'buy',
      type: 'post_only',
      price,
      size: '2',
      clientOrderId: 'm1',
    });
    venue.injectTrade('SOL', 'sell', '0.5');
    expect(
      log.fills.map((f) => [f.clientOrderId, f.lots, f.liquidity, f.orderFullyFilled]),
    ).toEqual([['m1', 500, 'maker', false]]);
    venue.injectTrade('SOL', 'sell', '3');
    expect(log.fills.map((f) => [f.lots, f.orderFullyFilled])).toEqual([
      [500, false],
      [1500, true],
    ]);
    expect(venue.desk.find('0xm', { clientOrderId: 'm1' }).status).toBe('filled');
    const position = venue.account('0xm').positions.get('SOL');
    expect(position?.size.toFixed()).toBe('2');
    expect(position?.entryPrice.toFixed()).toBe(price);
  });

  it('fills one resting order alone, ahead of its queue, and leaves the rest of the book', () => {
    const { sim, log } = world(2);
    const venue = sim.venue('lighter');
    const { bidTicks, tick } = touch(sim, 'lighter', 'SOL');
    const lotsAt = (): number => venue.market('SOL').book.bids.level(bidTicks)?.totalLots ?? 0;
    const house = lotsAt();
    const placed = venue.desk.place('0xm', {
      symbol: 'SOL',
      side: 'buy',
      type: 'post_only',
      price: tick.format(bidTicks),
      size: '2',
      clientOrderId: 'm1',
    });
    // m1 is last in its queue, behind the house: the fill takes from it alone.
    expect(venue.fillOrder('SOL', placed.order.orderId, '0.5')).toBe('0.5');
    expect(lotsAt()).toBe(house + 1_500);
    expect(venue.fillOrder('SOL', placed.order.orderId, '5')).toBe('1.5');
    expect(lotsAt()).toBe(house);
    expect(
      log.fills.map((f) => [f.clientOrderId, f.lots, f.liquidity, f.orderFullyFilled]),
    ).toEqual([
      ['m1', 500, 'maker', false],
      ['m1', 1_500, 'maker', true],
    ]);
    expect(() => venue.fillOrder('SOL', placed.order.orderId, '1')).toThrow('no resting order');
  });

  it('fills a resting bid when the venue price jumps down through it', () => {
    const { sim, log } = world(3);
    const { bidTicks, tick } = touch(sim, 'hyperliquid', 'ETH');
    const price = tick.format(bidTicks - 2);
    sim.venue('hyperliquid').desk.place('0xj', {
      symbol: 'ETH',
      side: 'buy',
      type: 'post_only',
      price,
      size: '0.1',
      clientOrderId: 'j1',
    });
    sim.jump({ venue: 'hyperliquid', symbol: 'ETH', bps: -50 });
    expect(log.fills).toHaveLength(1);
    expect(tick.format(log.fills[0].priceTicks)).toBe(price);
    expect(log.fills[0].orderFullyFilled).toBe(true);
  });

  it('fills an IOC order with what the book offers up to the limit and cancels the rest', () => {
    const { sim } = world(4);
    const venue = sim.venue('extended');
    const market = venue.market('ETH-USD');
    const best = market.book.asks.best()!;
    const available = market.lot.toBig(best.totalLots);
    const size = available.plus(market.lot.toBig(5)).toFixed();
    const { order, fills } = venue.desk.place('0xi', {
      symbol: 'ETH-USD',
      side: 'buy',
      type: 'ioc',
      price: market.price.format(best.priceTicks),
      size,
      clientOrderId: 'i1',
    });
    expect(order.status).toBe('canceled');
    expect(market.lot.toBig(order.filledLots).toFixed()).toBe(available.toFixed());
    expect(fills.every((fill) => fill.liquidity === 'taker')).toBe(true);
    expect(
      fills.reduce((sum, fill) => sum.plus(market.lot.toBig(fill.lots)), new Big(0)).toFixed(),
    ).toBe(available.toFixed());
  });

  it('takes a reduce-only IOC down to the position at most, and refuses one with nothing to reduce', () => {
    const { sim } = world(4);
    const venue = sim.venue('hyperliquid');
    const market = venue.market('SOL');
    const { bid, ask } = touch(sim, 'hyperliquid', 'SOL');
    const ioc = (side: 'buy' | 'sell', size: string, id: string, reduceOnly?: boolean) =>
      venue.desk.place('0xu', {
        symbol: 'SOL',
        side,
        type: 'ioc',
        price: side === 'buy' ? ask : bid,
        size,
        clientOrderId: id,
        ...(reduceOnly ? { reduceOnly } : {}),
      });
    const reasonOf = (call: () => unknown): string | undefined => {
      try {
        call();
      } catch (error) {
        return (error as SimError).reason;
      }
      return undefined;
    };
    // Flat: a reduce-only order has nothing to reduce.
    expect(reasonOf(() => ioc('sell', '0.23', 'u0', true))).toBe('reduce_only');
    expect(ioc('buy', '0.23', 'u1').order.filledLots).toBe(23);
    // Long 0.23: a reduce-only buy would add to it.
    expect(reasonOf(() => ioc('buy', '0.1', 'u2', true))).toBe('reduce_only');
    // A reduce-only sell of more than the position takes the position and no more.
    const unwind = ioc('sell', '0.5', 'u3', true);
    expect(market.lot.toBig(unwind.order.filledLots).toFixed()).toBe('0.23');
    expect(unwind.order.status).toBe('canceled');
    expect(venue.account('0xu').positions.get('SOL')).toBeUndefined();
    // Post-only orders cannot be reduce-only.
    expect(
      reasonOf(() =>
        venue.desk.place('0xu', {
          symbol: 'SOL',
          side: 'sell',
          type: 'post_only',
          price: ask,
          size: '0.1',
          clientOrderId: 'u4',
          reduceOnly: true,
        }),
      ),
    ).toBe('reduce_only_ioc');
  });

  it("spares a reduce-only order only the minimums its venue's waiver names", () => {
    const { sim } = world(4);
    const reasonOf = (call: () => unknown): string | undefined => {
      try {
        call();
      } catch (error) {
        return (error as SimError).reason;
      }
      return undefined;
    };
    const iocOn = (venueId: string, symbol: string) => {
      const venue = sim.venue(venueId);
      const { bid, ask } = touch(sim, venueId, symbol);
      let seq = 0;
      return (
        side: 'buy' | 'sell',
        size: string,
        reduceOnlyMinimums?: 'apply' | 'waive_notional' | 'waive_notional_if_closing' | 'waive_all',
      ) =>
        venue.desk.place('0xw', {
          symbol,
          side,
          type: 'ioc',
          price: side === 'buy' ? ask : bid,
          size,
          clientOrderId: `w${(seq += 1)}`,
          ...(reduceOnlyMinimums ? { reduceOnly: true, reduceOnlyMinimums } : {}),
        });
    };
    const position = (venueId: string, symbol: string) =>
      sim.venue(venueId).account('0xw').positions.get(symbol)?.size.toFixed() ?? '0';

    // Lighter SOL: lot 0.001, minimum 0.05 and 10 USD (SOL about 180).
    const sol = iocOn('lighter', 'SOL');
    sol('buy', '0.2');
    expect(reasonOf(() => sol('sell', '0.04', 'apply'))).toBe('below_min_size');
    expect(reasonOf(() => sol('sell', '0.04', 'waive_notional'))).toBe('below_min_size');
    expect(reasonOf(() => sol('sell', '0.05', 'apply'))).toBe('below_min_notional');
    sol('sell', '0.05', 'waive_notional');
    sol('sell', '0.04', 'waive_all');
    expect(position('lighter', 'SOL')).toBe('0.11');
    // Not reduce-only, a waiver spares nothing.
    expect(
      reasonOf(() =>
        sim.venue('lighter').desk.place('0xw', {
          symbol: 'SOL',
          side: 'sell',
          type: 'ioc',
          price: touch(sim, 'lighter', 'SOL').bid,
          size: '0.04',
          clientOrderId: 'w-plain',
          reduceOnlyMinimums: 'waive_all',
        }),
      ),
    ).toBe('below_min_size');

    // Paradex BTC: minimum 100 USD (BTC about 97,000), spared only for the whole position.
    const btc = iocOn('paradex', 'BTC-USD-PERP');
    btc('buy', '0.0015');
    btc('sell', '0.0011');
    expect(position('paradex', 'BTC-USD-PERP')).toBe('0.0004');
    expect(reasonOf(() => btc('sell', '0.0003', 'waive_notional_if_closing'))).toBe(
      'below_min_notional',
    );
    expect(btc('sell', '0.0004', 'waive_notional_if_closing').order.status).toBe('filled');
    expect(position('paradex', 'BTC-USD-PERP')).toBe('0');
  });

  it('returns the known order for a repeated client order id and refuses one with other terms', () => {
    const { sim } = world(5);
    const desk = sim.venue('paradex').desk;
    const { bidTicks, tick } = touch(sim, 'paradex', 'BTC-USD-PERP');
    const request = {
      symbol: 'BTC-USD-PERP',
      side: 'buy' as const,
      type: 'post_only' as const,
      price: tick.format(bidTicks - 10),
      size: '0.01',
      clientOrderId: 'dup',
    };
    const first = desk.place('0xd', request);
    const again = desk.place('0xd', request);
    expect(again.duplicate).toBe(true);
    expect(again.order.orderId).toBe(first.order.orderId);
    expect(sim.venue('paradex').registry.open('0xd')).toHaveLength(1);
    expect(() => desk.place('0xd', { ...request, size: '0.02' })).toThrow(SimError);
  });

  it('refuses orders off tick, off lot, below the minimums or beyond the margin', () => {
    const { sim } = world(6);
    const desk = sim.venue('paradex').desk;
    const base = {
      symbol: 'BTC-USD-PERP',
      side: 'buy' as const,
      type: 'post_only' as const,
      clientOrderId: 'r',
    };
    const reasonOf = (price: string, size: string): string | undefined => {
      try {
        desk.place('0xr', { ...base, price, size });
      } catch (error) {
        return (error as SimError).reason;
      }
      return undefined;
    };
    expect(reasonOf('90000.05', '0.01')).toBe('invalid_tick');
    expect(reasonOf('90000', '0.000015')).toBe('invalid_size');
    expect(reasonOf('90000', '0.00005')).toBe('below_min_size');
    expect(reasonOf('90000', '0.001')).toBe('below_min_notional');
    expect(reasonOf('90000', '600')).toBe('insufficient_margin');
  });

  it('lets cross-venue spreads move around a mean and come back', () => {
    const { sim } = world(9);
    const spreads: number[] = [];
    for (let i = 0; i < 3000; i += 1) {
      sim.prices.step();
      spreads.push(sim.prices.basisBps('aster', 'BTCUSDT') - sim.prices.basisBps('lighter', 'BTC'));
    }
    const mean = spreads.reduce((a, b) => a + b, 0) / spreads.length;
    const crossings = spreads.filter(
      (s, i) => i > 0 && Math.sign(s - mean) !== Math.sign(spreads[i - 1] - mean),
    ).length;
    expect(Math.max(...spreads) - Math.min(...spreads)).toBeGreaterThan(5);
    expect(crossings).toBeGreaterThan(10);
  });
});
