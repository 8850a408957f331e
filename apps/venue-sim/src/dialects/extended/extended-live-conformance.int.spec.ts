import { runLiveConformance } from '../live-conformance';

runLiveConformance('extended', 'ETH-USD', 24);
