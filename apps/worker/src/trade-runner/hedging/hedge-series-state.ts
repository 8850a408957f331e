import type Big from 'big.js';
import type { HedgeResult } from '@sts/contracts';

/**
 * Where a hedge stands. `reserved` is the size counted in flight by the
 * trade's accumulator and not settled yet. An attempt at the venue or being
 * looked up carries its number (an answer for another attempt is ignored)
 * and whether hedge_timeout_ms passed meanwhile (it then ends when the
 * attempt settles).
 */
export type SeriesState =
  /** The next attempt may go: nothing is at the venue. */
  | { kind: 'ready'; reserved: Big }
  /** The IOC is out; `overdue` once it has not answered when it should have. */
  | {
      kind: 'at_venue';
      reserved: Big;
      attempt: number;
      /** Epoch ms when its IOC was sent (its fills are read from then if its fate stays unknown). */
      sentAtMs: number;
      overdue: boolean;
      timedOut: boolean;
      slowTimer: NodeJS.Timeout;
    }
  /**
   * Its answer was lost, or the venue holds it unclosed: the venue is asked
   * for it by client order id. `settlesByMs` (epoch ms): after it the
   * request has landed or never will.
   */
  | {
      kind: 'looking_up';
      reserved: Big;
      attempt: number;
      sentAtMs: number;
      settlesByMs: number;
      timedOut: boolean;
    }
  /** The remainder waits a moment before its attempt. */
  | { kind: 'retry_wait'; reserved: Big; timer: NodeJS.Timeout }
  /** The last attempt is settled and the next not reserved yet (within one turn). */
  | { kind: 'settled' }
  | { kind: 'ended'; result: HedgeResult | 'abandoned' };

export type InFlight = Extract<SeriesState, { kind: 'at_venue' | 'looking_up' }>;

/** The hedge's fate is in doubt while an answer is overdue or lost (see Hedger.inDoubt). */
export const inDoubt = (state: SeriesState): boolean =>
  state.kind === 'looking_up' || (state.kind === 'at_venue' && state.overdue);

/** The state of attempt `attempt` if it is still at the venue or being looked up. */
export function inFlightAttempt(state: SeriesState, attempt: number): InFlight | null {
  return (state.kind === 'at_venue' || state.kind === 'looking_up') && state.attempt === attempt
    ? state
    : null;
}
