// Entry point for other apps' specs and benches (the fleet runs main.ts).
export { startWorker, type RunningWorker } from './bootstrap';
