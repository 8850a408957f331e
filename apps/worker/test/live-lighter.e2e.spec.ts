import { describeLivePairs, UNBOUNDED_TAKEOVER_MS } from './live-pairs';

jest.setTimeout(150_000);

// Lighter on the live path end to end, against its dialect, with the tests'
// stand-in for the signer library a deployment provides (docs/live-venues.md: "Lighter's
// signer"). A placement answers a transaction hash: the worker's client finds
// the order by its client order index. After the kill -9, the worker that
// takes over knows the dead one's Lighter orders and fills by what Lighter's
// 48-bit index keeps of our id: the trade and the kind (a partial id).
describeLivePairs('Lighter live through ccxt, against its dialect', {
  live: ['hyperliquid', 'aster', 'paradex', 'extended', 'lighter'],
  pairs: [
    ['lighter', 'hyperliquid'],
    ['hyperliquid', 'lighter'],
    ['lighter', 'aster'],
    ['aster', 'lighter'],
    ['lighter', 'paradex'],
    ['paradex', 'lighter'],
    ['lighter', 'extended'],
    ['extended', 'lighter'],
  ],
  crash: [
    {
      pair: ['hyperliquid', 'lighter'],
      terms: { market: 'BTC', target_size: '0.01', take: '0.004' },
      takeoverWithinMs: UNBOUNDED_TAKEOVER_MS,
    },
    {
      pair: ['lighter', 'aster'],
      terms: { market: 'ETH', target_size: '0.1', take: '0.04' },
      takeoverWithinMs: UNBOUNDED_TAKEOVER_MS,
    },
  ],
  refusingHedge: 'lighter',
});
