import type { OrderSide } from '../model/orders';
import type { VenueClient } from '../venue-client';

/**
 * What the conformance suite needs from the venue under test beyond the
 * client itself. Paper venues implement every capability through the
 * simulator's control endpoint; a live venue run by hand leaves out what it
 * cannot do (nobody can make a real market trade on demand), declares it in
 * `capabilities`, and the cases that need it are skipped.
 */
export interface ConformanceDriver {
  /** Lets the venue move on (paper: one simulation step; live: a short wait). */
  advance(): Promise<void>;
  /** Another trader takes `size` on `takerSide` down to `limitPrice`, trading through resting orders. */
  trade?(symbol: string, takerSide: OrderSide, size: string, limitPrice: string): Promise<void>;
  /** Cuts the client's stream like a network failure, refusing reconnects for `blockMs`. */
  dropStream?(blockMs: number): Promise<void>;
  /**
   * Makes the client's next order request of `op` lose its answer: held by
   * the venue past the client's request timeout either before it reaches the
   * matching engine (`before`: it must then expire unexecuted) or after it
   * executed (`after`). The hold ends within a second of the request's expiry.
   */
  loseNextAnswer?(op: 'place' | 'cancel' | 'replace', at: 'before' | 'after'): Promise<void>;
  /**
   * Ends the holds of `loseNextAnswer` now, each request reaching the venue
   * as at `atMs` (judged against its expiry as if then): what a request held
   * past its expiry does, proved without waiting for the expiry. Absent, the
   * suite sleeps until `atMs`.
   */
  endHoldsAt?(atMs: number): Promise<void>;
  /**
   * Lowers the venue's request limit for the 429 case's burst to about
   * `perSecond` of the client's open-order reads, in windows of at most a
   * second, so that a client whose every request is slow to sign (the live
   * client's) still sends faster than the limit; a venue whose published
   * limits count a minute has them squeezed into a second for the burst.
   * `restoreRateLimit` puts the venue's own limits back.
   */
  setRateLimit?(perSecond: number): Promise<void>;
  /** The venue's own limits again, after setRateLimit. */
  restoreRateLimit?(): Promise<void>;
}

export interface ConformanceHarness {
  /** Venue symbol to trade; it should have a spread of at least two ticks most of the time. */
  symbol: string;
  /** A connected client; each `account` label is its own account (own rate limit, own orders). */
  createClient(account: string): Promise<VenueClient>;
  driver: ConformanceDriver;
  /** The account's request limit per second; the 429 test runs only when it is given. */
  rateLimitPerS?: number;
  /** Base size to use; defaults to the market's minimum size (raised to meet a minimum notional). */
  orderSize?: string;
}

export interface ConformanceSetup {
  /** Known before the suite starts, so cases a venue cannot run are reported as skipped. */
  /**
   * `loseAnswer`: true runs every lost-answer case; `'after'` only those
   * whose request executed before its answer was lost (a client whose orders
   * carry no expiry cannot settle a request lost before the venue in a test's
   * time); `'placements'` those and a placement lost before the venue (a
   * client whose placements expire and whose cancels do not: Paradex).
   * `idsFromTheVenue`: `'partial'` where the venue keeps only part of our
   * client order id (Lighter's 48-bit index of a 128-bit id): a client that
   * never placed an order names its trade and kind, not the whole id.
   */
  capabilities: {
    trade: boolean;
    dropStream: boolean;
    rateLimit: boolean;
    loseAnswer?: boolean | 'after' | 'placements';
    /** A client whose replace is a cancel and a placement: the one-request replace case does not apply. */
    replaceInTwoRequests?: boolean;
    idsFromTheVenue?: 'whole' | 'partial';
    /** The client sends batched orders (`VenueClient.batch`): the batch cases apply. */
    batch?: boolean;
  };
  start(): Promise<ConformanceHarness>;
  stop(): Promise<void>;
}
