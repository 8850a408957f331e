import { runVenueConformance } from '@sts/venues';
import { liveConformanceSetup } from '../testing/live-harness';

// The VenueClient contract run against the live client (ccxt 4.5.84, the
// unmodified pro classes) speaking each venue's own protocol to its dialect,
// exactly as the paper client runs it against the paper protocol.
runVenueConformance(
  'live aster (ccxt) on its dialect',
  liveConformanceSetup('aster', 'ETHUSDT', 22),
);

runVenueConformance(
  'live hyperliquid (ccxt) on its dialect',
  liveConformanceSetup('hyperliquid', 'SOL', 21),
);

runVenueConformance(
  'live paradex (ccxt) on its dialect',
  liveConformanceSetup('paradex', 'ETH-USD-PERP', 23),
);

runVenueConformance(
  'live extended (ccxt) on its dialect',
  liveConformanceSetup('extended', 'ETH-USD', 24),
);

runVenueConformance(
  'live lighter (ccxt) on its dialect, with a stand-in signer',
  liveConformanceSetup('lighter', 'ETH', 25),
);
