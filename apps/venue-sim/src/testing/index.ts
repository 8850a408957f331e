/**
 * What other tests and benches need to run a paper exchange: start the
 * simulator in-process on a free port, drive it through /control, and run
 * the VenueClient conformance suite against it. Meant to be reached through
 * a spec-only path alias (see apps/venue-sim/README.md, "Using it from tests").
 */
export { startVenueSim, type RunningVenueSim, type VenueSimOptions } from '../sim-server';
export { paperConformanceSetup } from './paper-harness';
export { SimControl } from './sim-control';
