import { big } from '../testing/fixtures';
import { type CostFill, tradeCosts, type TradeCostsInput } from './trade-costs';

const usd = (price: string, size: string, fee: string | null): CostFill => ({
  price: big(price),
  size: big(size),
  fee: fee === null ? null : big(fee),
  feeAsset: fee === null ? null : 'USD',
});

/** A long maker: 0.01 bought at 65000.6 on average, sold at 65040 by one hedge. */
const input = (overrides: Partial<TradeCostsInput> = {}): TradeCostsInput => ({
  makerLeg: 'long',
  spreadType: 'absolute',
  coarserTickSize: big('0.5'),
  quote: { long: 'USD', short: 'USD' },
  long: [usd('65000', '0.004', '0.052'), usd('65001', '0.006', '0.078')],
  short: [usd('65040', '0.01', '0.26016')],
  hedges: [{ filledSize: big('0.01'), slippageBps: big('1.5') }],
  ...overrides,
});

describe('trade costs', () => {
  it('gives each leg its filled size, volume-weighted price, fees per asset and fill count', () => {
    const costs = tradeCosts(input());
    expect(costs.long.filledSize.toFixed()).toBe('0.01');
    expect(costs.long.avgPrice?.toFixed()).toBe('65000.6');
    expect(costs.long.fees.map((fee) => [fee.asset, fee.amount.toFixed()])).toEqual([
      ['USD', '0.13'],
    ]);
    expect(costs.long.fills).toBe(2);
    expect(costs.short.avgPrice?.toFixed()).toBe('65040');
    expect(costs.short.fills).toBe(1);
    expect(costs.short.fillsWithoutFee).toBe(0);
  });

  it('realises sell minus buy, and less each leg’s fees per unit of its size after fees', () => {
    const costs = tradeCosts(input());
    // 65040 - 65000.6; then - 0.13 / 0.01 - 0.26016 / 0.01.
    expect(costs.realisedSpread?.toFixed()).toBe('39.4');
    expect(costs.realisedSpreadAfterFees?.toFixed()).toBe('0.384');
  });

  it('counts a rebate (a negative fee) in the trader’s favour', () => {
    const costs = tradeCosts(input({ long: [usd('65000.6', '0.01', '-0.02')] }));
    // 39.4 + 2 - 26.016
    expect(costs.realisedSpreadAfterFees?.toFixed()).toBe('15.384');
  });

  it('reports the spread in the trade’s spread_type, of the hedge’s price', () => {
    const costs = tradeCosts(input({ spreadType: 'bps' }));
    expect(costs.realisedSpread?.toFixed()).toBe('6.0578105781');
    expect(costs.realisedSpreadAfterFees?.toFixed()).toBe('0.0590405904');
    const ticks = tradeCosts(input({ spreadType: 'ticks' }));
    expect(ticks.realisedSpread?.toFixed()).toBe('78.8');
  });

  it('has no ticks spread without the tick size', () => {
    const costs = tradeCosts(input({ spreadType: 'ticks', coarserTickSize: null }));
    expect(costs.realisedSpread).toBeNull();
    expect(costs.realisedSpreadAfterFees).toBeNull();
  });

  it('takes a short maker’s spread as its sale less the hedge’s purchase', () => {
    const costs = tradeCosts(
      input({
        makerLeg: 'short',
        long: [usd('64990', '0.01', '0.25996')],
        short: [usd('65000', '0.01', '0.13')],
      }),
    );
    expect(costs.realisedSpread?.toFixed()).toBe('10');
    // 10 - 25.996 - 13
    expect(costs.realisedSpreadAfterFees?.toFixed()).toBe('-28.996');
  });

  it('gives no spread after fees when a venue reported no fee for a fill', () => {
    const costs = tradeCosts(input({ short: [usd('65040', '0.01', null)] }));
    expect(costs.short.fillsWithoutFee).toBe(1);
    expect(costs.short.fees).toEqual([]);
    expect(costs.realisedSpread?.toFixed()).toBe('39.4');
    expect(costs.realisedSpreadAfterFees).toBeNull();
  });

  it('gives no spread after fees when a fee is not in the leg’s quote asset', () => {
    const inBase: CostFill = { ...usd('65040', '0.01', '0.000004'), feeAsset: 'BTC' };
    const costs = tradeCosts(input({ short: [inBase] }));
    expect(costs.short.fees.map((fee) => [fee.asset, fee.amount.toFixed()])).toEqual([
      ['BTC', '0.000004'],
    ]);
    expect(costs.realisedSpreadAfterFees).toBeNull();
    expect(
      tradeCosts(input({ quote: { long: 'USD', short: null } })).realisedSpreadAfterFees,
    ).toBeNull();
  });

  it('weights the hedges’ slippage by the size each filled', () => {
    const costs = tradeCosts(
      input({
        hedges: [
          { filledSize: big('0.004'), slippageBps: big('1.5') },
          { filledSize: big('0.006'), slippageBps: big('2.5') },
        ],
      }),
    );
    expect(costs.avgHedgeSlippageBps?.toFixed()).toBe('2.1');
  });

  it('reports a trade with no fills as nothing filled and nothing realised', () => {
    const costs = tradeCosts(input({ long: [], short: [], hedges: [] }));
    expect(costs.long.filledSize.toFixed()).toBe('0');
    expect(costs.long.avgPrice).toBeNull();
    expect(costs.long.fees).toEqual([]);
    expect(costs.short.fills).toBe(0);
    expect(costs.realisedSpread).toBeNull();
    expect(costs.realisedSpreadAfterFees).toBeNull();
    expect(costs.avgHedgeSlippageBps).toBeNull();
  });

  it('has no realised spread while only the maker leg has filled', () => {
    const costs = tradeCosts(input({ short: [], hedges: [] }));
    expect(costs.long.avgPrice?.toFixed()).toBe('65000.6');
    expect(costs.realisedSpread).toBeNull();
  });
});
