import type { TokenBucket } from '@sts/budget-client';

/** How often the listening trades' budgets are looked at again while all are dry. */
const POLL_MS = 100;
/** Longest a shared request waits for a token before it goes unpaid. */
const SHARED_BUDGET_WAIT_MS = 1_500;

/**
 * Pays one request the session makes for all its trades and that nothing
 * waits for (the dead-man switch): a token taken from a listening trade's
 * budget on the account, looked for every POLL_MS for at most
 * SHARED_BUDGET_WAIT_MS, then unpaid (null). It only ever `take`s, never
 * queues as a waiter: a waiter would stand before that trade's next request
 * (a hedge among them), and `take` never jumps the queue. Answers the
 * bucket that paid, which pays what the venue weighs the request beyond
 * that token. Never throws.
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
    // No trade with a budget on the account (an unmetered leg, none left): unpaid at once.
    if (buckets.length === 0 || Date.now() + POLL_MS > deadline) {
      return null;
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
