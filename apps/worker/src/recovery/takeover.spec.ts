import type { OpenTrade } from '../trade-runner/open-trade';
import { deadWorkerBounds, type TakeoverServices } from './takeover';

const services = {
  leaseTtlMs: 5_000,
  unboundedRequestWaitMs: 60_000,
  lateOrderWatchMs: 600_000,
} as TakeoverServices;

const legs = (maker: number | null, hedge: number | null): OpenTrade =>
  ({
    legs: {
      makerClient: { orderRequestLifetimeMs: maker },
      hedgeClient: { orderRequestLifetimeMs: hedge },
    },
  }) as unknown as OpenTrade;

const NOW = 1_700_000_000_000;

describe('when a dead worker can no longer land a request, per leg', () => {
  it('hedges once the hedge venue is settled, however long the maker venue may take', () => {
    // Maker on Extended (no bound), hedge on Hyperliquid (5.25 s); the lease expired 2 s ago,
    // and the dead worker stopped sending a fifth of the TTL (1 s) before that.
    const bounds = deadWorkerBounds(legs(null, 5_250), services, 2_000, NOW);
    expect(bounds.hedgeSettledAtMs).toBe(NOW - 3_000 + 5_250);
    expect(bounds.makerSettledAtMs).toBe(NOW - 3_000 + 60_000);
    // Late maker orders are watched for the venue's whole bound behind the running trade.
    expect(bounds.makerWatchUntilMs).toBe(NOW - 3_000 + 600_000);
  });

  it('a maker venue that bounds its requests is settled at its bound, with nothing to watch after', () => {
    const bounds = deadWorkerBounds(legs(10_250, null), services, 0, NOW);
    expect(bounds.makerSettledAtMs).toBe(NOW - 1_000 + 10_250);
    expect(bounds.hedgeSettledAtMs).toBe(NOW - 1_000 + 60_000);
    expect(bounds.makerWatchUntilMs).toBeLessThanOrEqual(NOW);
  });

  it('nothing to wait for where no lease expired (the trade was not taken from a dead worker)', () => {
    const bounds = deadWorkerBounds(legs(null, null), services, null, NOW);
    expect(bounds).toEqual({
      hedgeSettledAtMs: NOW,
      makerSettledAtMs: NOW,
      makerWatchUntilMs: NOW,
    });
  });
});
