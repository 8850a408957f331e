import { describeLivePairs } from './live-pairs';

jest.setTimeout(150_000);

// Paradex on the live path end to end: its dialect queues orders (a placement
// answers NEW, a cancel 204) and ccxt has no fill stream for it, so maker
// fills reach the worker through the order stream and a read of the order's
// fills. Sizes clear Paradex's minimum order value ($100).
describeLivePairs('Paradex live through ccxt, against its dialect', {
  live: ['hyperliquid', 'aster', 'paradex'],
  pairs: [
    ['paradex', 'hyperliquid'],
    ['hyperliquid', 'paradex'],
    ['paradex', 'aster'],
    ['aster', 'paradex'],
  ],
  crash: [
    // Paradex's placements expire (recv_window), as Hyperliquid's and Aster's requests do:
    // 6.25 s and 5.25 s; Aster's 10.25 s (its nonce window). The floor is a lease (5 s), the
    // pair's longest request life, a 1 s scan and the reads: 12.25 s without Aster, 16.25 s with
    // it. Slow-hour clean-clone CIs took 15.1 s and 18.9 s, so each bound is its floor and about
    // 8 s: still far from a takeover that waits the unbounded-request fallback (a minute).
    {
      pair: ['paradex', 'hyperliquid'],
      terms: { market: 'BTC', target_size: '0.01', take: '0.004' },
      takeoverWithinMs: 20_000,
    },
    {
      pair: ['aster', 'paradex'],
      terms: { market: 'ETH', target_size: '0.1', take: '0.04' },
      takeoverWithinMs: 25_000,
    },
  ],
  refusingHedge: 'hyperliquid',
});
