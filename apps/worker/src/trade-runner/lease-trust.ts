import { sleep } from '@sts/platform';

/** Share of the TTL a lease is trusted for after the acquisition or renewal that extended it began. */
export const LEASE_TRUST = 0.8;

/**
 * How long before its lease's expiry a worker stopped sending: it trusts
 * the lease until `LEASE_TRUST` of the TTL after the statement that set the
 * expiry began, and sends nothing once it does not.
 */
export const untrustedTailMs = (leaseTtlMs: number): number => leaseTtlMs * (1 - LEASE_TRUST);

/**
 * Share of the TTL after which a lease not renewed since is in doubt: the
 * trade stops quoting and takes its maker side down, so that nothing rests
 * unmanaged once the worker stops sending (at `LEASE_TRUST`) and the lease
 * passes (at 1). Renewals come every third of the TTL: a worker is in doubt
 * once one renewal failed or has been held up for 0.32 of the TTL (a busy
 * database or event loop alone should not take its orders down), and has
 * 0.15 of the TTL left to send the cancels.
 */
export const LEASE_QUOTE = 0.65;

/**
 * Until when (monotonic ms) this worker may rest maker orders and may touch
 * its venues at all for a trade: the runner moves both on each renewal.
 */
export interface LeaseTrust {
  /** Until then the trade quotes; after it, it only takes its maker side down and hedges. */
  quoteUntilMs: number;
  /** Until then the trade touches its venues; after it, nothing (the lease may pass). */
  validUntilMs: number;
}

/** The trust a lease acquisition or renewal that began at `startedAtMs` (monotonic) gives. */
export const trustFrom = (startedAtMs: number, leaseTtlMs: number): LeaseTrust => ({
  quoteUntilMs: startedAtMs + leaseTtlMs * LEASE_QUOTE,
  validUntilMs: startedAtMs + leaseTtlMs * LEASE_TRUST,
});

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
