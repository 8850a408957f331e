import { writeFileSync } from 'node:fs';
import { creditNeedsKeptRate, VENUE_IDS } from '@sts/domain';
import { ConfigError } from './load-config';
import { loadVenueRegistry } from './venue-registry';

const allLive = Object.fromEntries(
  VENUE_IDS.map((id) => [`VENUE_${id.toUpperCase()}_MODE`, 'live']),
);

describe('venue registry: what the service may spend on each venue', () => {
  it('gives paper venues the flat per-account limit, every request one token', () => {
    const registry = loadVenueRegistry({});
    expect(registry.hyperliquid).toMatchObject({ rateLimitPerS: 20, ipRateLimitPerS: null });
    expect(registry.hyperliquid.requestCosts.open_orders).toBe(1);
    expect(registry.hyperliquid.rateLimits).toEqual([]);
  });

  it('derives live budgets from the published limits (docs/venues/rate-limits.md)', () => {
    const registry = loadVenueRegistry(allLive);
    const budgets = Object.fromEntries(
      VENUE_IDS.map((id) => [id, [registry[id].rateLimitPerS, registry[id].ipRateLimitPerS]]),
    );
    expect(budgets).toEqual({
      // H1: 1200 weight a minute per IP, nothing per account but the cumulative address budget.
      hyperliquid: [18, 18],
      // L2: 4000 sendTx a minute per account (Premium); capped by rate_limit_per_s 40.
      lighter: [40, null],
      // P6: 1500 a minute per IP across all accounts binds before P4/P5.
      paradex: [22, 22],
      // E1: 1000 a minute per IP, every request.
      extended: [15, 15],
      // A2: 1200 orders a minute per account; A1 2400 weight a minute per IP.
      aster: [18, 18],
    });
    expect(registry.hyperliquid.requestCosts).toMatchObject({
      place: 1,
      open_orders: 20,
      fills: 20,
    });
    expect(registry.paradex.requestCosts).toMatchObject({ place: 1, cancel: 1, order_read: 3 });
    expect(registry.aster.requestCosts).toMatchObject({ place: 1, dead_man: 5, open_orders: 20 });
    expect(registry.lighter.requestCosts).toMatchObject({ place: 1, nonce: 1, fills: 100 });
  });

  it('meters hedges on every live venue: the published limits count them', () => {
    expect(loadVenueRegistry({}).paradex.sharedAccountLimit).toBe(false);
    expect(loadVenueRegistry(allLive).paradex.sharedAccountLimit).toBe(true);
  });

  it('lets an operator keep part of a live budget back with rate_limit_per_s', () => {
    const registry = loadVenueRegistry({ ...allLive, VENUE_EXTENDED_RATE_LIMIT_PER_S: '5' });
    expect(registry.extended.rateLimitPerS).toBe(5);
    expect(registry.extended.ipRateLimitPerS).toBe(15);
  });

  it("sends Paradex's fills reads on credit with no rate kept back, unless an operator caps it a second", () => {
    // Its fills read binds in P5 and P6, counted a minute at a time; P5s (120 a second) holds
    // the account's whole share of reads many times over.
    expect(creditNeedsKeptRate(loadVenueRegistry(allLive).paradex, 'fills')).toBe(false);
    const capped = loadVenueRegistry({ ...allLive, VENUE_PARADEX_RATE_LIMIT_PER_S: '8' });
    expect(creditNeedsKeptRate(capped.paradex, 'fills')).toBe(true);
  });

  it('refuses a minimum trade budget the published limits cannot give', () => {
    expect(() => loadVenueRegistry({ ...allLive, VENUE_EXTENDED_MIN_TRADE_BUDGET: '16' })).toThrow(
      ConfigError,
    );
  });

  it('takes a minimum pace of a per-IP limit a minute, within what the limit gives', () => {
    const registry = loadVenueRegistry(allLive);
    // By default min_trade_budget a second: the trades a division a second admitted.
    expect(registry.hyperliquid.minIpSharePerMin).toBe(registry.hyperliquid.minTradeBudget * 60);
    expect(registry.extended.minIpSharePerMin).toBe(registry.extended.minTradeBudget * 60);
    const set = loadVenueRegistry({ ...allLive, VENUE_EXTENDED_MIN_IP_SHARE_PER_MIN: '45' });
    expect(set.extended.minIpSharePerMin).toBe(45);
    // E1's 15 tokens a second are 900 a minute.
    for (const bad of ['901', '0', '2.5']) {
      expect(() =>
        loadVenueRegistry({ ...allLive, VENUE_EXTENDED_MIN_IP_SHARE_PER_MIN: bad }),
      ).toThrow(ConfigError);
    }
  });

  it('names what is wrong with a published limit', () => {
    const file = `${process.env['TMPDIR'] ?? '/tmp'}/venues-${process.pid}.json`;
    writeFileSync(
      file,
      JSON.stringify({
        aster: {
          rate_limits: [
            { id: 'A1', scope: 'host', window_s: 60, capacity: 10, weights: { sell: 1 } },
          ],
        },
      }),
    );
    expect(() => loadVenueRegistry({ ...allLive, VENUE_REGISTRY_FILE: file })).toThrow(
      /scope must be ip or account[\s\S]*unknown request kind sell/,
    );
  });
});
