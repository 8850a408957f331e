import { runLiveConformance } from '../live-conformance';

runLiveConformance('lighter', 'ETH', 25, ', with a stand-in signer');
