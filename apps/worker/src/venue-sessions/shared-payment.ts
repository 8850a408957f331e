import type { TokenBucket } from '@sts/budget-client';

/** How often the listening trades' budgets are looked at again while all are dry. */
const POLL_MS = 100;
/** Longest a shared request waits for a token before it is charged as a debt. */
const SHARED_BUDGET_WAIT_MS = 1_500;

/**
 * Pays one request the session makes for all its trades and that nothing
 * waits for (the dead-man switch, the cumulative budget's read): a token
 * taken from a listening trade's budget on the account, looked for every
 * POLL_MS for at most SHARED_BUDGET_WAIT_MS, then charged to the first open
 * one as a debt. It only ever `take`s or `charge`s, never queues as a
 * waiter: a waiter would stand before that trade's next request (a hedge
 * among them), and `take` never jumps the queue; a debt slows that trade's
 * next maker requests, never a hedge, which goes on credit. Never unpaid
 * while a trade with a budget listens: trades quoting at their whole share
 * keep every bucket dry, and a shared request sent unpaid then (Hyperliquid's
 * `userRateLimit` read weighs 20) was sent beyond the venue's per-IP limit
 * the budget divides. Answers the bucket that paid, which pays what the
 * venue weighs the request beyond that token; null only where no listening
 * trade has a budget (an unmetered leg). Never throws.
 */
export async function payForShared(
  listeners: ReadonlyArray<{ bucket?: TokenBucket }>,
  waitMs = SHARED_BUDGET_WAIT_MS,
): Promise<TokenBucket | null> {
  const buckets = listeners.flatMap((listener) => (listener.bucket ? [listener.bucket] : []));
  const deadline = Date.now() + waitMs;
  for (;;) {
    const paid = buckets.find(takeOne);
    if (paid) {
      return paid;
    }
    if (buckets.length === 0) {
      return null;
    }
    if (Date.now() + POLL_MS > deadline) {
      return buckets.find(chargeOne) ?? null;
    }
    await new Promise<void>((resolve) => setTimeout(resolve, POLL_MS).unref?.());
  }
}

/** A token now, if the bucket is open and has one with nobody waiting. */
function takeOne(bucket: TokenBucket): boolean {
  try {
    return bucket.take();
  } catch {
    // Closed: that trade ended.
    return false;
  }
}

/** A token owed by the bucket, if it is open (a closed bucket's trade ended). */
function chargeOne(bucket: TokenBucket): boolean {
  if (bucket.closed) {
    return false;
  }
  bucket.charge();
  return true;
}
