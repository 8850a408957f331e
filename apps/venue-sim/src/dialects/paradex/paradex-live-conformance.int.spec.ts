import { runLiveConformance } from '../live-conformance';

runLiveConformance('paradex', 'ETH-USD-PERP', 23);
