// Entry point for other apps' specs and benches (the fleet runs main.ts).
export { startNotifier, type RunningNotifier } from './bootstrap';
