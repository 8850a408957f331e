import { fillQualities } from './fill-quality';
import { hedgeOutcome, makerFill, markout } from './quality-fixtures';
import { tradeQuality, type QualityTrade } from './trade-quality';

const TRADE: QualityTrade = {
  id: '8f14e45f-ceea-467a-9575-6c3f1b2a9e01',
  status: 'active',
  market: 'BTC',
  makerLeg: 'long',
  spreadType: 'absolute',
  targetSpread: '5.000',
  createdAt: new Date(1_764_000_000_000 - 2_500),
  completedAt: null,
};

describe("a trade's fills with their markouts and hedges", () => {
  const log = [
    makerFill('f-1'),
    hedgeOutcome('f-1', '1.5'),
    markout('f-1', 1, '0.8', '65005.2'),
    makerFill('f-1'), // logged again by a recovery: counted once
    makerFill('f-2', { atMs: 1_764_000_003_000, price: '65010' }),
    markout('f-1', 10, '-2.5', '64983.75'),
    markout('f-1', 10, '9', '65058.5'), // a second sample of a horizon never counts
    markout('f-2', 1, '-1.2'),
    hedgeOutcome('recovery-3', '4'),
    hedgeOutcome('f-2', null, '0'),
  ];

  it('takes each fill once, the first markout per horizon and the hedges it caused', () => {
    const fills = fillQualities(log);
    expect(fills.map(({ fill }) => fill.fill_id)).toEqual(['f-1', 'f-2']);
    expect([...fills[0].markouts.values()].map((entry) => entry.bps)).toEqual(['0.8', '-2.5']);
    expect(fills[0].hedges.map((hedge) => hedge.slippage_bps)).toEqual(['1.5']);
    expect(fills[1].hedges.map((hedge) => hedge.result)).toEqual(['rejected']);
  });

  it('answers per fill and per trade, slippage positive when good, unsampled as null', () => {
    const quality = tradeQuality(TRADE, fillQualities(log), '6.25');
    expect(quality).toMatchObject({
      target_spread: '5',
      realised_spread: '6.25',
      realised_vs_target: '1.25',
      created_at: '2025-11-24T15:59:57.500Z',
      first_fill_at: '2025-11-24T16:00:00.000Z',
      time_to_first_fill_ms: 2500,
      ended_at: null,
      time_to_end_ms: null,
      fills_count: 2,
      // (0.8 + -1.2) / 2; one fill sampled at 10 s; none at 60 s.
      mean_markout_bps: { '1': '-0.2', '10': '-2.5', '60': null },
    });
    expect(quality.fills[0]).toEqual({
      fill_id: 'f-1',
      exchange: 'hyperliquid',
      side: 'buy',
      price: '65000',
      size: '0.004',
      timestamp: '2025-11-24T16:00:00.000Z',
      markout_bps: { '1': '0.8', '10': '-2.5', '60': null },
      markout_mid: { '1': '65005.2', '10': '64983.75', '60': null },
      hedges: [
        {
          result: 'filled',
          exchange: 'paradex',
          side: 'sell',
          requested_size: '0.004',
          filled_size: '0.004',
          avg_price: '65006',
          slippage_bps: '-1.5',
        },
      ],
    });
    expect(quality.fills[1].hedges[0]).toMatchObject({ avg_price: null, slippage_bps: null });
  });

  it('has no shortfall before both legs filled, and times an ended trade', () => {
    const ended = { ...TRADE, completedAt: new Date(TRADE.createdAt.getTime() + 61_000) };
    const quality = tradeQuality(ended, [], null);
    expect(quality).toMatchObject({
      realised_vs_target: null,
      first_fill_at: null,
      time_to_first_fill_ms: null,
      time_to_end_ms: 61_000,
      ended_at: new Date(ended.createdAt.getTime() + 61_000).toISOString(),
      fills_count: 0,
      mean_markout_bps: { '1': null, '10': null, '60': null },
    });
  });
});
