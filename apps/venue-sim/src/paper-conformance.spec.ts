import { runVenueConformance } from '@sts/venues';
import { paperConformanceSetup } from './testing/paper-harness';

// The VenueClient contract, run against the paper client over the real
// protocol (HTTP + WebSocket) on two venues with different symbol styles.
runVenueConformance('paper paradex', paperConformanceSetup('paradex', 'ETH-USD-PERP', 11));
runVenueConformance('paper hyperliquid', paperConformanceSetup('hyperliquid', 'SOL', 12));
