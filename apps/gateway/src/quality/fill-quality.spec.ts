import { fillQualities } from './fill-quality';
import {
  chunkStarted,
  hedgeOutcome,
  hedgeSent,
  makerFill,
  markout,
  quotingSpell,
} from './quality-fixtures';
import { NO_QUOTING } from './quoting-quality';
import { loggedQuality, tradeQuality, type QualityTrade } from './trade-quality';

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
    hedgeSent('f-1', '65008.5'),
    hedgeSent('f-1', '65001', 2), // a retry: the hedge arrived with its first IOC
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
    expect(fills[0].hedges.map((hedge) => hedge.outcome.slippage_bps)).toEqual(['1.5']);
    expect(fills[0].hedges.map((hedge) => hedge.arrivalMid)).toEqual(['65008.5']);
    expect(fills[1].hedges.map((hedge) => hedge.outcome.result)).toEqual(['rejected']);
    expect(fills[1].hedges.map((hedge) => hedge.arrivalMid)).toEqual([null]);
  });

  it('answers per fill and per trade, slippage positive when good, unsampled as null', () => {
    const logged = loggedQuality([
      chunkStarted('7.5'),
      ...log,
      quotingSpell(1_764_000_000_000, { quotedMs: 2_000, placed: 3, replaced: 1, canceled: 1 }),
      quotingSpell(1_764_000_003_000, { quotedMs: 2_500, placed: 1, canceled: 1 }),
    ]);
    const quality = tradeQuality(TRADE, logged, '6.25');
    expect(quality).toMatchObject({
      target_spread: '5',
      realised_spread: '6.25',
      realised_vs_target: '1.25',
      // The market offered 7.5 as it started; waiting for the fills gave up 1.25 of it.
      spread_at_start: '7.5',
      realised_vs_start: '-1.25',
      created_at: '2025-11-24T15:59:57.500Z',
      first_fill_at: '2025-11-24T16:00:00.000Z',
      time_to_first_fill_ms: 2500,
      ended_at: null,
      time_to_end_ms: null,
      fills_count: 2,
      quoting: {
        quoted_ms: 4_500,
        orders_placed: 4,
        orders_replaced: 1,
        cancels: 2,
        requotes: 3,
        // 2 fills in 4.5 s quoted: 1,600 an hour.
        fills_per_quote_hour: '1600',
        requotes_per_fill: '1.5',
        cancels_per_fill: '1',
      },
      quoted_share: null,
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
          // A sell 2.5 under the mid it arrived at: -2.5 / 65008.5 = -0.384565 bps.
          arrival_mid: '65008.5',
          arrival_slippage_bps: '-0.384565',
        },
      ],
    });
    expect(quality.fills[1].hedges[0]).toMatchObject({
      avg_price: null,
      slippage_bps: null,
      arrival_mid: null,
      arrival_slippage_bps: null,
    });
  });

  it('has no shortfall before both legs filled, and times an ended trade', () => {
    const ended = { ...TRADE, completedAt: new Date(TRADE.createdAt.getTime() + 61_000) };
    const quality = tradeQuality(
      ended,
      { fills: [], quoting: { ...NO_QUOTING, quotedMs: 30_500, placed: 1 }, spreadAtStart: '3' },
      null,
    );
    expect(quality).toMatchObject({
      spread_at_start: '3',
      realised_vs_start: null,
      quoted_share: '0.5',
      quoting: { fills_per_quote_hour: '0', requotes_per_fill: null, cancels_per_fill: null },
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
