import type { Trade } from '@sts/sdk';
import { tradeDetails, tradeLine } from '../src/output';

/** The OpenAPI document's example trade: hyperliquid long (maker), paradex short, 0.004 filled. */
const FILLED: Trade = {
  trade_id: '8f14e45f-ceea-467a-9575-6c3f1b2a9e01',
  user_id: 'user-1',
  market: 'BTC',
  long_exchange: 'hyperliquid',
  long_wallet: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
  short_exchange: 'paradex',
  short_wallet: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
  target_spread: '5',
  spread_condition: 'gte',
  target_size: '0.01',
  filled_size: '0.004',
  execution_type: 'maker_taker',
  maker_leg: 'long',
  max_slippage: '0.001',
  status: 'active',
  rate_budget: 10,
  created_at: '2026-01-05T09:30:00.000Z',
  updated_at: '2026-01-05T09:30:00.000Z',
  completed_at: null,
  size_type: 'base',
  spread_type: 'absolute',
  failure_reason: '',
  residual_unhedged: '0',
  residual_unwound: '0',
  fast_move_guard_stats: null,
  long_mode: 'live',
  short_mode: 'paper',
  costs: {
    long: {
      filled_size: '0.004',
      avg_price: '65000',
      fees: [{ asset: 'USDC', amount: '0.039' }],
      fills: 1,
      fills_without_fee: 0,
    },
    short: {
      filled_size: '0.004',
      avg_price: '65006',
      fees: [
        { asset: 'USD', amount: '0.0520048' },
        { asset: 'USDC', amount: '-0.009' },
      ],
      fills: 2,
      fills_without_fee: 1,
    },
    realised_spread: '6',
    realised_spread_after_fees: '-16.7512',
    avg_hedge_slippage_bps: '0.769',
  },
};

const NEW: Trade = {
  ...FILLED,
  status: 'pending',
  filled_size: '0',
  long_mode: 'paper',
  costs: {
    long: { filled_size: '0', avg_price: null, fees: [], fills: 0, fills_without_fee: 0 },
    short: { filled_size: '0', avg_price: null, fees: [], fills: 0, fills_without_fee: 0 },
    realised_spread: null,
    realised_spread_after_fees: null,
    avg_hedge_slippage_bps: null,
  },
};

const row = (details: string, name: string) =>
  details.split('\n').find((line) => line.startsWith(`${name.padEnd(13)} `));

describe('trades show and list: the mode and the costs of a trade', () => {
  it('show: each leg’s mode, its fills, average price and fees, the realised spread', () => {
    const details = tradeDetails(FILLED);
    expect(row(details, 'mode')).toBe(
      'mode          long LIVE on hyperliquid, short PAPER on paradex: real money on hyperliquid',
    );
    expect(row(details, 'long costs')).toBe(
      'long costs    0.004 filled at 65000 avg, 1 fill, fees 0.039 USDC',
    );
    expect(row(details, 'short costs')).toBe(
      'short costs   0.004 filled at 65006 avg, 2 fills, fees 0.0520048 USD + -0.009 USDC, ' +
        '1 without a fee reported',
    );
    expect(row(details, 'realised')).toBe('realised      6 absolute, -16.7512 after fees');
    expect(row(details, 'hedge slip')).toBe('hedge slip    0.769 bps (hedges, weighted by size)');
  });

  it('show: a paper trade before any fill says so, with no figure made up', () => {
    const details = tradeDetails(NEW);
    expect(row(details, 'mode')).toBe(
      'mode          PAPER: both legs on the simulator, no real money',
    );
    expect(row(details, 'long costs')).toBe('long costs    nothing filled');
    expect(row(details, 'short costs')).toBe('short costs   nothing filled');
    expect(row(details, 'realised')).toBe('realised      -');
    expect(row(details, 'hedge slip')).toBe('hedge slip    -');
    expect(tradeDetails({ ...NEW, long_mode: 'live', short_mode: 'live' })).toContain(
      '\nmode          LIVE: both legs on the venues themselves, real money\n',
    );
  });

  it('list: the mode after the status, the realised spread and the fees summed per asset', () => {
    const line = tradeLine(FILLED).split(/ {2,}/);
    expect(line.slice(0, 3)).toEqual([FILLED.trade_id, 'active', 'LIVE/PAPER']);
    expect(line.slice(-2)).toEqual([
      'realised 6 absolute, -16.7512 after fees',
      'fees 0.03 USDC + 0.0520048 USD',
    ]);
    const fresh = tradeLine(NEW).split(/ {2,}/);
    expect(fresh[2]).toBe('PAPER');
    expect(fresh.at(-1)).toBe(`[${'-'.repeat(20)}] 0 / 0.01 base (0%)`);
  });
});
