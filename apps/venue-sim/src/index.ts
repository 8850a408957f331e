// Entry point for other apps' specs and benches (the fleet runs main.ts):
// start a paper exchange in-process, drive it through /control, and run the
// VenueClient conformance suite against it.
export { startVenueSim, type RunningVenueSim, type VenueSimOptions } from './sim-server';
export { paperConformanceSetup } from './testing/paper-harness';
export { SimControl, type LoseNextFault, type TakerFlowAnswer } from './testing/sim-control';
export {
  issueExtendedApiKey,
  lighterApiKeyCredentials,
  onboardLiveWallet,
} from './testing/live-harness';
export { lighterTestSignerFiles } from './testing/lighter-test-signer-files';
export { asterLiveCredentials } from './dialects/aster/aster-api-wallets';
export { alternativeProfiles, coveringProfiles, type Profile } from './dialects/dialect-profiles';
export { DIALECT_READINGS } from './dialects/dialect-readings';
