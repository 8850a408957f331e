import { runVenueConformance } from '@sts/venues';
import { paperConformanceSetup } from './testing/paper-harness';

// The VenueClient contract, run against the paper client over the real
// protocol on venues with different symbol styles: orders on the account's
// socket (the default), and once more with orders over HTTP.
runVenueConformance('paper paradex', paperConformanceSetup('paradex', 'ETH-USD-PERP', 11));
runVenueConformance('paper hyperliquid', paperConformanceSetup('hyperliquid', 'SOL', 12));
runVenueConformance(
  'paper lighter, orders over HTTP',
  paperConformanceSetup('lighter', 'BTC', 13, { orderEntry: 'http' }),
);
