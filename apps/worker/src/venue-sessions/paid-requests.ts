import type { TokenBucket } from '@sts/budget-client';
import { payingRequests, type VenueClient } from '@sts/venues';

/**
 * Sends `call` (in this turn) with `paid` tokens of `bucket` already taken
 * for it; every further request the client sends for it waits for a token of
 * the same bucket first. A live client reading a queued order until the venue
 * acted on it (Paradex, Lighter, Extended) spends the account's limit on
 * every read, and the venue counts them all. A client that sends nothing
 * beyond its call (the paper client) is called as it is: no async context is
 * entered on its hot path. An unmetered leg (null) pays nothing.
 */
export function paidFrom<T>(
  bucket: TokenBucket | null,
  paid: number,
  client: Pick<VenueClient, 'sendsFollowUpRequests'>,
  call: () => Promise<T>,
): Promise<T> {
  return metered(bucket, paid, client, call, (tokens, signal) => bucket!.waitFor(tokens, signal));
}

/**
 * As `paidFrom`, but every further request goes at once on credit
 * (`charge`): for a hedge, whose venue may tell its fate only through reads
 * the venue weighs heavily (Lighter's order reads cost 50 tokens). Waiting
 * to pay for them would hold an open fill unhedged past the hedge timeout;
 * the debt instead slows the requests after it, so the rate still holds.
 */
export function paidOnCredit<T>(
  bucket: TokenBucket | null,
  paid: number,
  client: Pick<VenueClient, 'sendsFollowUpRequests'>,
  call: () => Promise<T>,
): Promise<T> {
  return metered(bucket, paid, client, call, (tokens) => {
    bucket!.charge(tokens);
    return Promise.resolve();
  });
}

/** Runs `call` paying each further request with `pay`, where there is a bucket and follow-ups to pay. */
function metered<T>(
  bucket: TokenBucket | null,
  paid: number,
  client: Pick<VenueClient, 'sendsFollowUpRequests'>,
  call: () => Promise<T>,
  pay: (tokens: number, signal?: AbortSignal) => Promise<void>,
): Promise<T> {
  if (!bucket || !client.sendsFollowUpRequests) {
    return call();
  }
  // What was paid in advance and never sent (an order that went in another
  // caller's batch) goes back to the bucket the trade's next request takes from.
  return payingRequests(
    {
      paid,
      pay,
      refund: (tokens) => bucket.refund(tokens),
      tryPay: (tokens) => bucket.take(tokens),
    },
    call,
  );
}

/**
 * One token for a request that goes now whatever the budget: taken if it is
 * there, else owed (`charge`), so the requests after it wait the debt out.
 */
export function spendNow(bucket: TokenBucket | null): void {
  if (bucket && !bucket.take()) {
    bucket.charge(1);
  }
}

/**
 * Sends `call` at once, it and its follow-ups on credit: a takeover's reads
 * of a dead worker's trade (its open orders and fills), while whatever that
 * worker left may be unhedged. They follow a silence of the trade at least
 * as long as the lease it had to outlive, so the account saved at least
 * what they spend; the debt slows what the trade sends after them.
 */
export function paidAtOnce<T>(
  bucket: TokenBucket | null,
  client: Pick<VenueClient, 'sendsFollowUpRequests'>,
  call: () => Promise<T>,
): Promise<T> {
  spendNow(bucket);
  return paidOnCredit(bucket, 1, client, call);
}

/** Pays one token of `bucket` (when the leg is metered), then calls; any further request of the call pays its own. */
export async function paid<T>(
  bucket: TokenBucket | null,
  client: Pick<VenueClient, 'sendsFollowUpRequests'>,
  call: () => Promise<T>,
): Promise<T> {
  if (bucket && !bucket.take()) {
    await bucket.waitFor();
  }
  return paidFrom(bucket, 1, client, call);
}
