import { alternativeDialectProfiles, describeLivePairs } from './live-pairs';

jest.setTimeout(150_000);

const LIVE = ['hyperliquid', 'aster', 'paradex', 'extended', 'lighter'];

// The live path end to end once more under every reading the venues'
// dialects play where the venues' documents are silent (the live specs of
// each venue run the default readings): each venue makes once and hedges
// once, in a ring, and a worker killed with two trades alive is recovered,
// all judged by the simulator's own records. One fleet for every venue
// keeps it to one start per set of readings.
for (const profiles of alternativeDialectProfiles(LIVE)) {
  describeLivePairs('Every live venue through ccxt, under the other readings', {
    live: LIVE,
    pairs: [
      ['hyperliquid', 'aster'],
      ['aster', 'paradex'],
      ['paradex', 'extended'],
      ['extended', 'lighter'],
      ['lighter', 'hyperliquid'],
    ],
    crash: [
      {
        pair: ['paradex', 'hyperliquid'],
        terms: { market: 'BTC', target_size: '0.01', take: '0.004' },
      },
      { pair: ['aster', 'extended'], terms: { market: 'ETH', target_size: '0.1', take: '0.04' } },
    ],
    refusingHedge: 'hyperliquid',
    profiles,
  });
}
