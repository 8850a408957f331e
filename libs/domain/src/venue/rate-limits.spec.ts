import {
  budgetTermsOf,
  creditNeedsKeptRate,
  FLAT_REQUEST_COSTS,
  RATE_LIMIT_HEADROOM,
  REQUEST_KINDS,
  type RateLimitPool,
  type RequestKind,
} from './rate-limits';

const orders: RateLimitPool = {
  id: 'O',
  scope: 'account',
  windowS: 60,
  capacity: 1200,
  weights: { place: 1, cancel: 1 },
};
const reads: RateLimitPool = {
  id: 'R',
  scope: 'account',
  windowS: 60,
  capacity: 600,
  weights: { order_read: 1, open_orders: 1 },
};
const ip: RateLimitPool = {
  id: 'I',
  scope: 'ip',
  windowS: 60,
  capacity: 1500,
  weights: { place: 1, cancel: 1, order_read: 1, open_orders: 1 },
};
const weighted: RateLimitPool = {
  id: 'W',
  scope: 'ip',
  windowS: 60,
  capacity: 1200,
  weights: { place: 1, cancel: 1, order_read: 2, open_orders: 20 },
};

/** Weight each pool sees a second when `perS` tokens a second are spent on `kind` alone. */
function poolLoad(pools: RateLimitPool[], kind: RequestKind, perS: number): Map<string, number> {
  const { costs } = budgetTermsOf(pools);
  const requestsPerS = perS / costs[kind];
  return new Map(pools.map((pool) => [pool.id, requestsPerS * (pool.weights[kind] ?? 0)]));
}

describe('budget terms from published limits', () => {
  it('makes a placement one token of the pool that binds it hardest', () => {
    const terms = budgetTermsOf([orders, reads, ip]);
    // Orders 1200/min and IP 1500/min at 90 %: the account's orders bind at 18 a second.
    expect(terms.costs.place).toBe(1);
    // A read is dearer: 9 reads a second against 18 tokens.
    expect(terms.costs.order_read).toBe(2);
    expect(terms.accountPerS).toBe(18);
    expect(terms.ipPerS).toBe(22);
  });

  it('prices reads by their weight where one pool counts them all', () => {
    const terms = budgetTermsOf([weighted]);
    expect(terms.costs).toMatchObject({ place: 1, cancel: 1, order_read: 2, open_orders: 20 });
    expect(terms.ipPerS).toBe(18);
    expect(terms.accountPerS).toBe(18);
  });

  it('keeps every pool under its capacity whatever single kind the whole budget buys', () => {
    const pools = [orders, reads, ip];
    const terms = budgetTermsOf(pools);
    for (const kind of REQUEST_KINDS) {
      for (const [id, load] of poolLoad(pools, kind, Math.min(terms.accountPerS, terms.ipPerS!))) {
        const pool = pools.find((candidate) => candidate.id === id)!;
        expect(load * pool.windowS).toBeLessThanOrEqual(pool.capacity * RATE_LIMIT_HEADROOM + 1e-6);
      }
    }
  });

  it('has no IP limit where no pool is per IP', () => {
    expect(budgetTermsOf([orders, reads]).ipPerS).toBeNull();
  });

  it('refuses pools that never count a placement: there is no unit', () => {
    expect(() => budgetTermsOf([reads])).toThrow(/no pool counts placements/);
  });
});

describe('whether a request sent on credit needs rate kept back', () => {
  const venueOf = (pools: RateLimitPool[], cap = Infinity) => {
    const terms = budgetTermsOf(pools);
    return {
      rateLimits: pools,
      rateLimitPerS: Math.min(cap, terms.accountPerS),
      requestCosts: terms.costs,
    };
  };
  const readsASecond = (capacity: number): RateLimitPool => ({
    ...reads,
    id: 'Rs',
    windowS: 1,
    capacity,
  });

  it('needs none where every pool counting the read is counted a minute at a time', () => {
    expect(creditNeedsKeptRate(venueOf([orders, reads, ip]), 'order_read')).toBe(false);
  });

  it('needs none beside a pool of a second that holds the whole share and a read of each trade', () => {
    // Paradex's P5s (120 a second) beside its minute pools.
    expect(creditNeedsKeptRate(venueOf([orders, reads, ip, readsASecond(120)]), 'order_read')).toBe(
      false,
    );
  });

  it('keeps rate back where a pool of a second counting the read could be reached', () => {
    expect(creditNeedsKeptRate(venueOf([orders, reads, ip, readsASecond(12)]), 'order_read')).toBe(
      true,
    );
  });

  it('keeps rate back where the operator caps the share a second below the published limits', () => {
    expect(creditNeedsKeptRate(venueOf([orders, reads, ip], 8), 'order_read')).toBe(true);
  });

  it('keeps rate back on a paper venue: its limit is a flat one a second', () => {
    const paper = { rateLimits: [], rateLimitPerS: 30, requestCosts: FLAT_REQUEST_COSTS };
    expect(creditNeedsKeptRate(paper, 'fills')).toBe(true);
  });
});
