import {
  HEDGE_REQUESTS_PER_RESTING_MAKER,
  quotaHold,
  quotaLeft,
  type CumulativeQuota,
} from './cumulative-quota';

const quota = (fields: Partial<CumulativeQuota>): CumulativeQuota => ({
  left: 1_000,
  spent: 0,
  unreported: 0,
  hedgeHolders: 1,
  ...fields,
});

describe('cumulative quota: when a trade may rest a maker order', () => {
  it('what is left is the venue word less what was spent and may have been spent since', () => {
    expect(quotaLeft(quota({ left: 100, spent: 30, unreported: 18 }))).toBe(52);
  });

  it('no word from either venue: nothing holds the trade', () => {
    expect(quotaHold(null, null)).toBeNull();
  });

  it('the hedge account must pay every hedging trade its reserve', () => {
    const reserve = 3 * HEDGE_REQUESTS_PER_RESTING_MAKER;
    expect(quotaHold(null, quota({ left: reserve, hedgeHolders: 3 }))).toBeNull();
    expect(quotaHold(null, quota({ left: reserve, spent: 1, hedgeHolders: 3 }))).toEqual({
      account: 'hedge',
      left: reserve - 1,
      needed: reserve,
    });
  });

  it('a trade not counted yet among the hedge holders still reserves its own hedges', () => {
    expect(quotaHold(null, quota({ left: 7, hedgeHolders: 0 }))).toEqual({
      account: 'hedge',
      left: 7,
      needed: HEDGE_REQUESTS_PER_RESTING_MAKER,
    });
  });

  it('a placement on the maker account leaves the hedges of the trades hedging there', () => {
    const reserve = 2 * HEDGE_REQUESTS_PER_RESTING_MAKER;
    expect(quotaHold(quota({ left: reserve + 1, hedgeHolders: 2 }), null)).toBeNull();
    expect(quotaHold(quota({ left: reserve, hedgeHolders: 2 }), null)).toEqual({
      account: 'maker',
      left: reserve,
      needed: reserve + 1,
    });
    // Nobody hedges there: a placement only needs itself.
    expect(quotaHold(quota({ left: 1, hedgeHolders: 0 }), null)).toBeNull();
    expect(quotaHold(quota({ left: 0, hedgeHolders: 0 }), null)).toMatchObject({ needed: 1 });
  });

  it('spent past the cap (Hyperliquid counts on): held', () => {
    expect(quotaHold(null, quota({ left: -40 }))).toMatchObject({ account: 'hedge', left: -40 });
  });
});
