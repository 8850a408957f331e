import { describeLivePairs, UNBOUNDED_TAKEOVER_MS } from './live-pairs';

jest.setTimeout(150_000);

// Extended on the live path end to end: each order carries a StarkEx
// settlement signed with the account's stark key (checked by the dialect),
// and the venue answers a placement with the order's ids only.
describeLivePairs('Extended live through ccxt, against its dialect', {
  live: ['hyperliquid', 'aster', 'paradex', 'extended'],
  pairs: [
    ['extended', 'hyperliquid'],
    ['hyperliquid', 'extended'],
    ['extended', 'aster'],
    ['aster', 'extended'],
    ['extended', 'paradex'],
    ['paradex', 'extended'],
  ],
  crash: [
    {
      pair: ['extended', 'hyperliquid'],
      terms: { market: 'BTC', target_size: '0.01', take: '0.004' },
      takeoverWithinMs: UNBOUNDED_TAKEOVER_MS,
    },
    {
      pair: ['aster', 'extended'],
      terms: { market: 'ETH', target_size: '0.1', take: '0.04' },
      takeoverWithinMs: UNBOUNDED_TAKEOVER_MS,
    },
  ],
  refusingHedge: 'hyperliquid',
});
