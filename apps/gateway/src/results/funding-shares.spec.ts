import Big from 'big.js';
import { fundingShares } from './funding-shares';
import type { ResultFill } from './result-fills';

const fill = (tradeId: string, side: 'buy' | 'sell', size: string, timeMs: number): ResultFill => ({
  tradeId,
  market: 'BTC',
  exchange: 'hyperliquid',
  wallet: '0xabc',
  side,
  price: new Big(65_000),
  size: new Big(size),
  fee: null,
  feeAsset: null,
  timeMs,
});

const shares = (...args: Parameters<typeof fundingShares>) =>
  fundingShares(...args).map(({ tradeId, amount }) => [tradeId, amount.toFixed()]);

describe('fundingShares', () => {
  it('shares a payment by the position each trade held at the settlement', () => {
    const fills = [fill('a', 'buy', '0.01', 1), fill('b', 'buy', '0.006', 2)];
    expect(shares({ timeMs: 10, amount: new Big('-1.6'), size: new Big('0.016') }, fills)).toEqual([
      ['a', '-1'],
      ['b', '-0.6'],
    ]);
  });

  it('counts only fills at or before the settlement', () => {
    const fills = [fill('a', 'buy', '0.01', 1), fill('b', 'buy', '0.006', 11)];
    expect(shares({ timeMs: 10, amount: new Big('-1'), size: new Big('0.01') }, fills)).toEqual([
      ['a', '-1'],
    ]);
  });

  it('leaves the part of a position beyond the trades’ unattributed', () => {
    const fills = [fill('a', 'sell', '0.01', 1)];
    expect(shares({ timeMs: 10, amount: new Big('2'), size: new Big('-0.04') }, fills)).toEqual([
      ['a', '0.5'],
    ]);
  });

  it('gives nothing to trades holding against the venue’s direction, or to a flat account', () => {
    const fills = [fill('a', 'buy', '0.01', 1), fill('b', 'sell', '0.004', 2)];
    expect(shares({ timeMs: 10, amount: new Big('-0.6'), size: new Big('0.006') }, fills)).toEqual([
      ['a', '-0.6'],
    ]);
    const closed = [fill('a', 'buy', '0.01', 1), fill('a', 'sell', '0.01', 2)];
    expect(shares({ timeMs: 10, amount: new Big('-1'), size: null }, closed)).toEqual([]);
  });

  it('gives the whole payment, to the last unit, when the trades hold the whole position', () => {
    const fills = ['a', 'b', 'c'].map((tradeId, index) => fill(tradeId, 'buy', '0.01', index));
    const split = fundingShares({ timeMs: 10, amount: new Big('-0.00000001'), size: null }, fills);
    const total = split.reduce((sum, share) => sum.plus(share.amount), new Big(0));
    expect(total.toFixed()).toBe('-0.00000001');
  });
});
