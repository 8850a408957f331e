import type { MarketSpread, TradeEvent } from '@sts/sdk';
import { ascending, fillsModel, realisedSpreads } from './chart-model';

const NOON = Date.parse('2026-11-24T12:00:00.000Z');
const at = (ms: number) => new Date(NOON + ms).toISOString();
const seconds = (ms: number) => (NOON + ms) / 1000;

const makerFill = (price: string, ms: number): TradeEvent => ({
  sequence: ms,
  event_type: 'maker_fill',
  data: {
    exchange: 'hyperliquid',
    market: 'BTC',
    side: 'buy',
    price,
    size: '0.001',
    order_id: 'o',
    client_order_id: 'c',
    fully_filled: false,
    // The venue's clock may differ from the server's: the chart uses when the fill was recorded.
    timestamp_ms: 1,
  },
  worker_id: 'w',
  created_at: at(ms),
});
const hedgeFilled = (price: string, ms: number): TradeEvent => ({
  sequence: ms + 1,
  event_type: 'hedge_filled',
  data: { exchange: 'paradex', side: 'sell', price, size: '0.001', order_id: 'h', timestamp_ms: 1 },
  worker_id: 'w',
  created_at: at(ms),
});
const outcome = (spread: string | null, ms: number): TradeEvent => ({
  sequence: ms + 2,
  event_type: 'hedge_outcome',
  data: {
    result: 'filled',
    exchange: 'paradex',
    side: 'sell',
    requested_size: '0.001',
    filled_size: '0.001',
    avg_price: '100',
    attempts: 1,
    slippage_bps: '0',
    spread_achieved: spread,
    guard_fill_class: null,
  },
  worker_id: 'w',
  created_at: at(ms),
});
const reading = (ms: number, long: [string, string], short: [string, string]): MarketSpread => ({
  market: 'BTC',
  long_exchange: 'hyperliquid',
  short_exchange: 'paradex',
  long: { bid: long[0], ask: long[1] },
  short: { bid: short[0], ask: short[1] },
  spread_type: 'bps',
  spread: '1',
  condition_met: null,
  at: at(ms),
});

describe('the fills chart model', () => {
  const events = [makerFill('100.5', 0), hedgeFilled('100.75', 200), makerFill('100.25', 1_000)];
  const books = [
    reading(0, ['100.4', '100.6'], ['100.7', '100.9']),
    reading(1_000, ['100.2', '100.3'], ['100.8', '101']),
  ];

  it('puts maker and hedge fills on the server clock, keeping the log’s decimals', () => {
    const model = fillsModel(events, books, { maker_leg: 'long' });
    expect(model.makerFills).toEqual([
      { time: seconds(0), value: 100.5, price: '100.5', side: 'buy', size: '0.001' },
      { time: seconds(1_000), value: 100.25, price: '100.25', side: 'buy', size: '0.001' },
    ]);
    expect(model.hedgeFills).toEqual([
      { time: seconds(200), value: 100.75, price: '100.75', side: 'sell', size: '0.001' },
    ]);
  });

  it('draws the maker leg’s venue as the maker book', () => {
    const long = fillsModel(events, books, { maker_leg: 'long' });
    expect(long.makerBook.bid.map((p) => p.value)).toEqual([100.4, 100.2]);
    expect(long.hedgeBook.ask).toEqual([
      { time: seconds(0), value: 100.9 },
      { time: seconds(1_000), value: 101 },
    ]);
    const short = fillsModel(events, books, { maker_leg: 'short' });
    expect(short.makerBook.ask.map((p) => p.value)).toEqual([100.9, 101]);
    expect(short.hedgeBook.bid.map((p) => p.value)).toEqual([100.4, 100.2]);
  });

  it('keeps each series strictly ascending, as the charting library requires', () => {
    const same = [
      { time: 5, value: 1 },
      { time: 5, value: 2 },
      { time: 4, value: 3 },
    ];
    expect(ascending(same).map((p) => [p.time, p.value])).toEqual([
      [4, 3],
      [5, 1],
      [5.001, 2],
    ]);
  });
});

describe('the realised spread model', () => {
  const events = [
    outcome('1.5', 0),
    outcome(null, 500),
    outcome('0.5', 1_000),
    outcome('1', 2_000),
  ];

  it('takes each hedged pair’s spread_achieved, and whether it met the target', () => {
    const points = realisedSpreads(events, { target_spread: '1', spread_condition: 'gte' });
    expect(points).toEqual([
      { time: seconds(0), value: 1.5, spread: '1.5', metTarget: true },
      { time: seconds(1_000), value: 0.5, spread: '0.5', metTarget: false },
      { time: seconds(2_000), value: 1, spread: '1', metTarget: true },
    ]);
  });

  it('reads the target under each condition', () => {
    const met = (condition: string) =>
      realisedSpreads(events, { target_spread: '1', spread_condition: condition }).map(
        (p) => p.metTarget,
      );
    expect(met('gt')).toEqual([true, false, false]);
    expect(met('lte')).toEqual([false, true, true]);
    expect(met('lt')).toEqual([false, true, false]);
    expect(met('eq')).toEqual([false, false, true]);
  });
});
