import { OrderRejectedError } from '../errors';
import type { DeadManArming, DeadManSwitch } from '../venue-client';
import { asterDeadManSwitch, hasAsterCountdown } from './aster-dead-man';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { toVenueError, venueAnswer } from './ccxt-errors';

/** The members of ccxt 4.5.84 the switches use: its own methods and implicit API, unpatched. */
interface DeadManExchange {
  cancelAllOrdersAfter(timeout: number, params?: Record<string, unknown>): Promise<unknown>;
  /** Hyperliquid's: a nonce, an L1 action's signature, and `POST /exchange`. */
  incrementingNonce?(): number;
  signL1Action?(action: Record<string, unknown>, nonce: number): unknown;
  privatePostExchange?(request: Record<string, unknown>): Promise<unknown>;
}

/** One venue's switch: its shortest timeout, how ccxt arms it, and how it disarms it. */
interface DeadManWay {
  minTimeoutMs: number;
  /** The countdown the venue keeps for `timeoutMs` (Extended counts whole seconds). */
  countdownMs(timeoutMs: number): number;
  arm(exchange: DeadManExchange, timeoutMs: number): Promise<unknown>;
  disarm(exchange: DeadManExchange): Promise<unknown>;
}

/** Lighter's scheduled cancel-all: 5 minutes to 15 days ahead (lighter-go constants.go). */
const LIGHTER_MIN_MS = 5 * 60_000;
/**
 * Hyperliquid's and Lighter's switches take an absolute time that ccxt sets
 * from our clock when it signs (`nonce + timeout`, `milliseconds() +
 * timeout`), and the venue holds it against its own clock when the request
 * arrives: an arming at the documented minimum exactly arrives under it. The
 * shortest timeout this client arms is the documented one plus this margin
 * (transit and clock skew).
 */
const ARRIVAL_MARGIN_MS = 5_000;
/** Lighter's cancel-all time in force that takes a scheduled one off (lighter-go: ABORT). */
const LIGHTER_ABORT = 2;

const WAYS: Readonly<Record<string, DeadManWay>> = {
  /**
   * `scheduleCancel` (exchange endpoint, "Schedule cancel (dead man's
   * switch)"): at least 5 s ahead. ccxt's `cancelAllOrdersAfter(timeout)`
   * sends `time: nonce + timeout`; its `0` would send `time: nonce` (refused
   * as too soon), not the documented removal, which is the action without
   * `time`: sent through ccxt's own `signL1Action` and `privatePostExchange`.
   */
  hyperliquid: {
    minTimeoutMs: 5_000 + ARRIVAL_MARGIN_MS,
    countdownMs: (timeoutMs) => timeoutMs,
    arm: (exchange, timeoutMs) => exchange.cancelAllOrdersAfter(timeoutMs),
    disarm: (exchange) => {
      const { incrementingNonce, signL1Action, privatePostExchange } = exchange;
      if (!incrementingNonce || !signL1Action || !privatePostExchange) {
        throw new Error('hyperliquid: ccxt lacks signL1Action or privatePostExchange');
      }
      const action = { type: 'scheduleCancel' };
      const nonce = incrementingNonce.call(exchange);
      const signature = signL1Action.call(exchange, action, nonce);
      return privatePostExchange.call(exchange, { action, nonce, signature });
    },
  },
  /**
   * `POST /api/v1/user/deadmanswitch?countdownTime=<seconds>`: ccxt sends
   * `timeout / 1000` rounded down, and `0` takes it off. Under a second
   * would round to 0 and disarm: a second is the shortest (Extended
   * publishes no bound).
   */
  extended: {
    minTimeoutMs: 1_000,
    countdownMs: (timeoutMs) => Math.floor(timeoutMs / 1000) * 1000,
    arm: (exchange, timeoutMs) => exchange.cancelAllOrdersAfter(timeoutMs),
    disarm: (exchange) => exchange.cancelAllOrdersAfter(0),
  },
  /**
   * A scheduled cancel-all transaction (time in force SCHEDULED at now +
   * timeout); ccxt refuses under 5 minutes or over 15 days before signing.
   * The abort is the same ccxt method with its signed fields overridden
   * (`time_in_force` ABORT, `time` 0), as its params are merged into them.
   */
  lighter: {
    minTimeoutMs: LIGHTER_MIN_MS + ARRIVAL_MARGIN_MS,
    countdownMs: (timeoutMs) => timeoutMs,
    arm: (exchange, timeoutMs) => exchange.cancelAllOrdersAfter(timeoutMs),
    disarm: (exchange) =>
      exchange.cancelAllOrdersAfter(LIGHTER_MIN_MS, { time_in_force: LIGHTER_ABORT, time: 0 }),
  },
};

/**
 * The venue's dead-man switch through ccxt, or null where ccxt offers none
 * this client uses (Paradex has none). Aster's `countdownCancelAll` is per
 * symbol (aster-dead-man.ts): it arms each of `restingMarkets`, the ccxt
 * symbols the client placed an order on that may rest (an IOC never does:
 * a hedge-only market costs no arming). A refusal of the venue (Hyperliquid's volume rule or spent
 * daily triggers, a timeout out of bounds) is an answer, `{armed: false,
 * reason}` in the venue's words; a failure to reach it rejects with the
 * VenueError, as every other call. Each request goes through the
 * instance's `fetch`, so a paying call meters it as any other.
 */
export function ccxtDeadManSwitch(
  venue: string,
  exchange: CcxtExchangeLike,
  restingMarkets: () => Iterable<string> = () => [],
): DeadManSwitch | null {
  if (venue === 'aster') {
    return hasAsterCountdown(exchange) ? asterDeadManSwitch(exchange, restingMarkets) : null;
  }
  const way = WAYS[venue];
  const ccxt = exchange as unknown as DeadManExchange;
  if (!way || typeof ccxt.cancelAllOrdersAfter !== 'function') {
    return null;
  }
  return {
    minTimeoutMs: way.minTimeoutMs,
    async arm(timeoutMs: number): Promise<DeadManArming> {
      // Refused here only where ccxt would send something else than an
      // arming (Extended's countdown rounded down to 0 takes the switch
      // off); the venue (or ccxt's own check) answers every other timeout.
      if (way.countdownMs(timeoutMs) <= 0) {
        return { armed: false, reason: `${venue}: a countdown under ${way.minTimeoutMs} ms` };
      }
      try {
        await way.arm(ccxt, timeoutMs);
      } catch (error) {
        return refusal(venue, error);
      }
      // The venue counts from when it took the request, before this answer:
      // it cancels no later than now plus the countdown.
      return { armed: true, cancelsAtMs: Date.now() + way.countdownMs(timeoutMs) };
    },
    async disarm(): Promise<void> {
      try {
        await way.disarm(ccxt);
      } catch (error) {
        throw toVenueError(error, venue);
      }
    },
  };
}

/** A refusal's answer in the venue's words; anything else (unreached, rate limited) rejects. */
function refusal(venue: string, error: unknown): DeadManArming {
  const mapped = toVenueError(error, venue);
  if (!(mapped instanceof OrderRejectedError)) {
    throw mapped;
  }
  const message = error instanceof Error ? error.message : String(error);
  return { armed: false, reason: venueAnswer(message, venue) };
}

/**
 * What a placement runs before a resting order on a market (Aster's switch is
 * per market: a market first traded while armed is covered first); undefined
 * where the switch covers the whole account.
 */
export function beforeRestingOrderOf(
  deadMan: DeadManSwitch | null,
): ((unified: string) => Promise<void>) | undefined {
  if (deadMan && 'cover' in deadMan && typeof deadMan.cover === 'function') {
    const covering = deadMan as DeadManSwitch & { cover(unified: string): Promise<void> };
    return (unified) => covering.cover(unified);
  }
  return undefined;
}
