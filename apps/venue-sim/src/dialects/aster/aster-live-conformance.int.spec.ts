import { runLiveConformance } from '../live-conformance';

runLiveConformance('aster', 'ETHUSDT', 22);
