import Big from 'big.js';
import type { TradeFundingRow } from '@sts/persistence';
import type { ResultFill } from './result-fills';
import { realisedPairs, resultsReport } from './results-report';

const DAY = 86_400_000;
/** Wednesday 2026-12-02 00:00 UTC. */
const WED = Date.parse('2026-12-02T00:00:00Z');

const fill = (
  tradeId: string,
  exchange: string,
  side: 'buy' | 'sell',
  price: string,
  size: string,
  timeMs: number,
  fee: string | null = '0.1',
  feeAsset = 'USDC',
): ResultFill => ({
  tradeId,
  market: tradeId.startsWith('eth') ? 'ETH' : 'BTC',
  exchange,
  wallet: '0xabc',
  side,
  price: new Big(price),
  size: new Big(size),
  fee: fee === null ? null : new Big(fee),
  feeAsset,
  timeMs,
});

const funding = (
  tradeId: string,
  exchange: string,
  amount: string,
  paidAtMs: number,
): TradeFundingRow => ({
  tradeId,
  market: tradeId.startsWith('eth') ? 'ETH' : 'BTC',
  exchange,
  paidAtMs,
  amount,
});

describe('realisedPairs', () => {
  it('pairs buys and sells first in, first out, at the later fill', () => {
    const pairs = realisedPairs([
      fill('btc', 'hyperliquid', 'buy', '100', '1', 1),
      fill('btc', 'hyperliquid', 'buy', '102', '1', 2),
      fill('btc', 'paradex', 'sell', '103', '1.5', 3),
      fill('btc', 'hyperliquid', 'sell', '99', '0.5', 4),
    ]);
    expect(pairs.map((pair) => [pair.timeMs, pair.amount.toFixed(), pair.exchanges])).toEqual([
      [3, '3', ['hyperliquid', 'paradex']],
      [3, '0.5', ['hyperliquid', 'paradex']],
      [4, '-1.5', ['hyperliquid', 'hyperliquid']],
    ]);
  });
});

describe('resultsReport', () => {
  const fills = [
    fill('btc', 'hyperliquid', 'buy', '100', '1', WED - 2 * DAY),
    fill('btc', 'paradex', 'sell', '101', '1', WED + 1000, '0.2', 'USD'),
    fill('eth', 'hyperliquid', 'sell', '50', '2', WED + 2000, '0.3', 'HYPE'),
    fill('eth', 'paradex', 'buy', '49', '2', WED + 3000, null),
  ];
  const shares = [
    funding('btc', 'hyperliquid', '-0.05', WED + 5000),
    funding('btc', 'paradex', '0.07', WED + 5000),
    funding('eth', 'paradex', '0.01', WED - 5 * DAY),
  ];
  const window = { fromMs: WED - DAY, toMs: WED + DAY };

  it('counts what falls in the window: fills, pairs realised in it, funding settled in it', () => {
    const report = resultsReport(fills, shares.slice(0, 2), window, 'market');
    expect(report.rows).toEqual([
      {
        key: 'BTC',
        trades: 1,
        fills: 1,
        volume: '101',
        realised_spread: '1',
        fees: '0.2',
        funding_paid: '0.05',
        funding_received: '0.07',
        net: '0.82',
      },
      {
        key: 'ETH',
        trades: 1,
        fills: 2,
        volume: '198',
        realised_spread: '2',
        fees: '0',
        funding_paid: '0',
        funding_received: '0',
        net: '2',
      },
    ]);
    expect(report.totals).toMatchObject({ trades: 2, fills: 3, volume: '299', net: '2.82' });
    // The ETH fees: one in HYPE, one never reported.
    expect(report.unpricedFees).toBe(2);
  });

  it('by venue, each of a pair’s venues carries half its spread and the rows add up', () => {
    const report = resultsReport(fills, shares.slice(0, 2), window, 'venue');
    expect(report.rows.map((row) => [row.key, row.realised_spread, row.net])).toEqual([
      ['hyperliquid', '1.5', '1.45'],
      ['paradex', '1.5', '1.37'],
    ]);
    expect(report.totals.net).toBe('2.82');
  });

  it('by day and week: UTC dates, a week under its Monday', () => {
    const wide = { fromMs: WED - 10 * DAY, toMs: WED + DAY };
    expect(resultsReport(fills, shares, wide, 'day').rows.map((row) => row.key)).toEqual([
      '2026-11-27',
      '2026-11-30',
      '2026-12-02',
    ]);
    expect(resultsReport(fills, shares, wide, 'week').rows.map((row) => row.key)).toEqual([
      '2026-11-23',
      '2026-11-30',
    ]);
  });

  it('answers zeros and no rows for an empty window', () => {
    const report = resultsReport([], [], window, 'day');
    expect(report.rows).toEqual([]);
    expect(report.totals).toEqual({
      trades: 0,
      fills: 0,
      volume: '0',
      realised_spread: '0',
      fees: '0',
      funding_paid: '0',
      funding_received: '0',
      net: '0',
    });
  });
});
