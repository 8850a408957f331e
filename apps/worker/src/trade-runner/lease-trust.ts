import { sleep } from '@sts/platform';

/** Share of the TTL a lease is trusted for after the acquisition or renewal that extended it began. */
export const LEASE_TRUST = 0.8;

/**
 * How long before its lease's expiry a worker stopped sending: it trusts
 * the lease until `LEASE_TRUST` of the TTL after the statement that set the
 * expiry began, and sends nothing once it does not.
 */
export const untrustedTailMs = (leaseTtlMs: number): number => leaseTtlMs * (1 - LEASE_TRUST);

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
