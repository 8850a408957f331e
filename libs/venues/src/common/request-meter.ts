import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How the requests of one call are paid for, in budget tokens (a request
 * costs what the venue weighs its kind): `paid` in advance, the rest by `pay`.
 */
export interface RequestPayment {
  paid: number;
  /**
   * Resolves once `tokens` more are paid and the request may be sent
   * (rejects: it must not be, or `signal` gave the wait up, nothing paid).
   */
  pay(tokens: number, signal?: AbortSignal): Promise<void>;
  /**
   * Gives back `tokens` paid in advance that the call never spent, once it
   * settled, when its order went in another call's batched request that
   * weighs one request (`sentInAnotherCallsBatch`): the venue counted that
   * call's tokens, not these.
   */
  refund?(tokens: number): void;
  /**
   * Takes `tokens` now if they are there, without waiting (true: paid, and
   * counted as paid in advance). Absent: a call pays only by `pay`.
   */
  tryPay?(tokens: number): boolean;
}

/** The tokens one metered call has spent so far. */
interface Tally {
  tokens: number;
  /** Paid in advance beyond `payment.paid`, by `payAtOnceIfAble`. */
  paidLater: number;
  payment: RequestPayment;
  /** The call has settled: what still runs in its context (a stream it opened) is not its own. */
  settled: boolean;
  /** Its order went in another call's batch of one request's weight: unspent tokens go back. */
  batchedElsewhere: boolean;
}

const tallies = new AsyncLocalStorage<Tally>();

/**
 * Runs `call` (at once, in this turn) so that every request a venue client
 * sends on its behalf is paid for before it goes, its follow-ups included:
 * a live client reads a queued order until the venue has acted on it
 * (Paradex answers a placement `NEW`, a cancel 204), and the venue counts
 * those reads against the account's limit as it counts the placement. A
 * client announces each request with `beforeVenueRequest`; one that never
 * does (the paper client: one request per call, paid by the caller) sends
 * nothing more.
 */
export function payingRequests<T>(payment: RequestPayment, call: () => Promise<T>): Promise<T> {
  const tally: Tally = {
    tokens: 0,
    paidLater: 0,
    payment,
    settled: false,
    batchedElsewhere: false,
  };
  const answer = tallies.run(tally, call);
  const settle = (): void => {
    tally.settled = true;
    const unspent = advance(tally);
    if (tally.batchedElsewhere && unspent > 0) {
      payment.refund?.(unspent);
    }
  };
  answer.then(settle, settle);
  return answer;
}

/**
 * The current call's order went in another call's batched request, which
 * weighs what one request does (a Hyperliquid action of up to 39 orders, a
 * cancel batch): what the call paid in advance and did not spend itself is
 * given back when it settles (`RequestPayment.refund`), so a batch is paid
 * its own weight, not one request per order. Outside a paying call: nothing.
 */
export function sentInAnotherCallsBatch(): void {
  const tally = tallies.getStore();
  if (tally && !tally.settled) {
    tally.batchedElsewhere = true;
  }
}

/**
 * Runs `call` outside any paying call: what it sends is paid by no trade
 * (a worker's market load, shared by every account of the venue and done
 * once, is no trade's spend: the budget's headroom under each limit takes it).
 */
export function unpaid<T>(call: () => Promise<T>): Promise<T> {
  return tallies.exit(call);
}

/** Whether a request sent now is sent for a paying call (`payingRequests`) still in progress. */
export function inPayingCall(): boolean {
  const tally = tallies.getStore();
  return tally !== undefined && !tally.settled;
}

/**
 * A request costing `tokens` about to be sent for the call in progress:
 * undefined when it may go at once (no paying call, or covered by what was
 * paid in advance), else a promise that resolves once the rest is paid.
 */
export function beforeVenueRequest(tokens = 1): Promise<void> | undefined {
  const tally = tallies.getStore();
  if (!tally || tally.settled) {
    return undefined;
  }
  const covered = advance(tally);
  tally.tokens += tokens;
  return tokens > covered ? tally.payment.pay(tokens - covered) : undefined;
}

/** What the call paid in advance and has not spent (never below 0). */
function advance(tally: Tally): number {
  return Math.max(0, tally.payment.paid + tally.paidLater - tally.tokens);
}

/** What the current call paid in advance and has not spent yet: 0 outside a paying call. */
export function unspentInAdvance(): number {
  const tally = tallies.getStore();
  return tally && !tally.settled ? advance(tally) : 0;
}

/**
 * Makes sure the current call has `tokens` paid in advance, taking what is
 * missing from its budget only if it is there now (`RequestPayment.tryPay`):
 * true when the call's next request of that weight goes without waiting.
 * A batcher asks it of each call of a batch to find one that sends the
 * batch at once. Outside a paying call: true (nobody pays there).
 */
export function payAtOnceIfAble(tokens = 1): boolean {
  const tally = tallies.getStore();
  if (!tally || tally.settled) {
    return true;
  }
  const missing = tokens - advance(tally);
  if (missing <= 0) {
    return true;
  }
  if (!tally.payment.tryPay?.(missing)) {
    return false;
  }
  tally.paidLater += missing;
  return true;
}

/**
 * Pays `tokens` in advance for the current call's next request, waiting for
 * them (`RequestPayment.pay`) unless `signal` gives the wait up first. A
 * batcher waits so for a caller whose request would go alone, while a batch
 * may still take it. Outside a paying call, or covered already: at once.
 */
export function payInAdvance(tokens = 1, signal?: AbortSignal): Promise<void> {
  const tally = tallies.getStore();
  if (!tally || tally.settled) {
    return Promise.resolve();
  }
  const missing = tokens - advance(tally);
  if (missing <= 0) {
    return Promise.resolve();
  }
  return tally.payment.pay(missing, signal).then(() => {
    tally.paidLater += missing;
  });
}
