import { runLiveConformance } from '../live-conformance';

runLiveConformance('hyperliquid', 'SOL', 21);
