import { performance } from 'node:perf_hooks';

/**
 * The worker's one clock for durations, timeouts and the fast-move guard:
 * monotonic milliseconds (never the wall clock, which can jump).
 */
export interface MonotonicClock {
  now(): number;
}

export const monotonicClock: MonotonicClock = { now: () => performance.now() };
