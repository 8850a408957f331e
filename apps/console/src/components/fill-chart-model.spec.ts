import type { TradeEvent } from '@sts/sdk';
import { fillChartModel, linearScale } from './fill-chart-model';

const at = '2026-11-24T12:00:00.000Z';
const makerFill = (price: string, timestamp_ms: number): TradeEvent => ({
  sequence: timestamp_ms,
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
    timestamp_ms,
  },
  worker_id: 'w',
  created_at: at,
});
const hedgeFilled = (price: string, timestamp_ms: number): TradeEvent => ({
  sequence: timestamp_ms + 1,
  event_type: 'hedge_filled',
  data: { exchange: 'paradex', side: 'sell', price, size: '0.001', order_id: 'h', timestamp_ms },
  worker_id: 'w',
  created_at: at,
});
const outcome = (spread: string | null): TradeEvent => ({
  sequence: 99,
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
  created_at: at,
});

describe('fill chart model', () => {
  it('takes maker and hedge fill prices and each pair realised spread against the target', () => {
    const model = fillChartModel(
      [
        makerFill('100', 1),
        hedgeFilled('105', 2),
        outcome('5'),
        makerFill('101', 3),
        hedgeFilled('103', 4),
        outcome('2'),
        outcome(null),
      ],
      '4',
      'gte',
    );
    expect(model.makerFills).toEqual([
      { atMs: 1, price: 100 },
      { atMs: 3, price: 101 },
    ]);
    expect(model.hedgeFills.map((point) => point.price)).toEqual([105, 103]);
    expect(model.realised.map((pair) => [pair.spread, pair.metTarget])).toEqual([
      [5, true],
      [2, false],
    ]);
  });

  it('judges a pair by the trade condition (lte: at most the target)', () => {
    expect(fillChartModel([outcome('3')], '4', 'lte').realised[0].metTarget).toBe(true);
    expect(fillChartModel([outcome('4')], '4', 'lt').realised[0].metTarget).toBe(false);
  });

  it('scales linearly and widens a single value so it is drawn mid-range', () => {
    const scale = linearScale([10, 20], 0, 100);
    expect([scale(10), scale(15), scale(20)]).toEqual([0, 50, 100]);
    const single = linearScale([50], 0, 100);
    expect(single(50)).toBeCloseTo(50);
  });
});
