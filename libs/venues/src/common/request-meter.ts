import { AsyncLocalStorage } from 'node:async_hooks';

/** How the requests of one call are paid for: `paid` in advance, each further one by `pay`. */
export interface RequestPayment {
  paid: number;
  /** Resolves once one more request may be sent (rejects: it must not be). */
  pay(): Promise<void>;
}

/** The requests one metered call has sent so far. */
interface Tally {
  requests: number;
  payment: RequestPayment;
  /** The call has settled: what still runs in its context (a stream it opened) is not its own. */
  settled: boolean;
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
  const tally: Tally = { requests: 0, payment, settled: false };
  const answer = tallies.run(tally, call);
  const settle = (): void => {
    tally.settled = true;
  };
  answer.then(settle, settle);
  return answer;
}

/**
 * A request about to be sent for the call in progress: undefined when it may
 * go at once (no paying call, or one of the requests paid in advance), else
 * a promise that resolves once it is paid.
 */
export function beforeVenueRequest(): Promise<void> | undefined {
  const tally = tallies.getStore();
  if (!tally || tally.settled) {
    return undefined;
  }
  tally.requests += 1;
  return tally.requests > tally.payment.paid ? tally.payment.pay() : undefined;
}
