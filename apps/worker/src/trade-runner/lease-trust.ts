import { sleep } from '@sts/platform';

/** Until when (monotonic ms) this worker trusts its lease: the runner moves it on each renewal. */
export interface LeaseTrust {
  validUntilMs: number;
}

/** How often a trade whose lease is not trusted looks again (until a renewal comes through). */
const TRUST_POLL_MS = 20;

/**
 * Waits out a lapse of the lease's trust (a renewal held up while the lease
 * is still this worker's): true once the trade may touch its venues again,
 * false once it is closed here (the lease lost: the new owner reconciles).
 * What a lapse stopped is deferred to then, never dropped.
 */
export async function untilTrusted(trade: {
  mayTouchVenue(): boolean;
  isClosed(): boolean;
}): Promise<boolean> {
  while (!trade.isClosed()) {
    if (trade.mayTouchVenue()) {
      return true;
    }
    await sleep(TRUST_POLL_MS);
  }
  return false;
}
