// Entry point for other apps' specs and benches (the fleet runs main.ts).
export { startVenueSim, type RunningVenueSim, type VenueSimOptions } from './sim-server';
