// Entry point for other apps' specs and benches (the fleet runs main.ts).
export { startWorker, type RunningWorker } from './bootstrap';
export { REQUOTE_TURNS, type RequoteTurn } from './metrics/worker-metrics';
