import { OrderRejectedError } from '../errors';
import type { DeadManArming, DeadManSwitch } from '../venue-client';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { toVenueError, venueAnswer } from './ccxt-errors';

const ASTER = 'aster';

/**
 * The shortest countdown this client arms. Aster names no minimum; it checks
 * the countdowns "approximately every 10 milliseconds" and advises against
 * a countdown "too precise or too small" (assumed: a second).
 */
export const ASTER_DEAD_MAN_MIN_MS = 1_000;

/** The members of ccxt 4.5.84's aster the switch uses: its implicit API, unpatched. */
interface AsterDeadManExchange {
  /** `POST /fapi/v3/countdownCancelAll` (ccxt: `fapi.private.post['v3/countdownCancelAll']`). */
  fapiPrivatePostV3CountdownCancelAll(params: Record<string, unknown>): Promise<unknown>;
  /** ccxt's market by unified symbol (its `id` is Aster's symbol). */
  market(symbol: string): { id: string };
}

/**
 * A switch per market: besides arming every market an order may rest on, it
 * covers a market first traded while armed before that market's first resting order
 * (else the order would rest with no countdown until the next push forward).
 */
export interface MarketCoveringSwitch extends DeadManSwitch {
  /** Starts the armed countdown on `unified` if it has none yet; nothing while disarmed. */
  cover(unified: string): Promise<void>;
}

/** Whether the ccxt instance has Aster's countdown endpoint. */
export function hasAsterCountdown(exchange: CcxtExchangeLike): boolean {
  const ccxt = exchange as unknown as Partial<AsterDeadManExchange>;
  return (
    typeof ccxt.fapiPrivatePostV3CountdownCancelAll === 'function' &&
    typeof ccxt.market === 'function'
  );
}

/**
 * Aster's dead-man switch, "Auto-Cancel All Open Orders" (github
 * asterdex/api-docs, V3(Recommended)/EN/aster-finance-futures-api-v3.md):
 * `POST /fapi/v3/countdownCancelAll {symbol, countdownTime}` cancels every
 * open order of THAT SYMBOL when the countdown ends; `0` stops it; each call
 * replaces the symbol's countdown. So the switch arms every market this
 * client placed an order on that may rest (`restingMarkets`: ccxt symbols;
 * an IOC never rests, so a market only hedged on costs nothing), one request of
 * weight 10 each (ccxt counts it as cost 1), one after another (ccxt's v3
 * nonce is the time in microseconds). With no market traded yet there is no
 * order of this client to cancel: the arming holds vacuously, and a market
 * first traded while armed gets its countdown before its first resting order
 * (`cover`). A refusal of any market is the
 * answer `{armed: false, reason}` (markets armed before it stay armed: the
 * safe side); a failure to reach the venue rejects.
 */
export function asterDeadManSwitch(
  exchange: CcxtExchangeLike,
  restingMarkets: () => Iterable<string>,
): MarketCoveringSwitch {
  const ccxt = exchange as unknown as AsterDeadManExchange;
  /** The countdown in force (null while disarmed), and the markets it was started on. */
  let armedMs: number | null = null;
  const covered = new Set<string>();
  const countdown = (unified: string, countdownTime: number) =>
    ccxt.fapiPrivatePostV3CountdownCancelAll({
      symbol: ccxt.market(unified).id,
      countdownTime,
    });
  return {
    minTimeoutMs: ASTER_DEAD_MAN_MIN_MS,
    async arm(timeoutMs: number): Promise<DeadManArming> {
      const countdownTime = Math.floor(timeoutMs);
      if (countdownTime < ASTER_DEAD_MAN_MIN_MS) {
        return { armed: false, reason: `aster: a countdown under ${ASTER_DEAD_MAN_MIN_MS} ms` };
      }
      covered.clear();
      for (const unified of [...restingMarkets()]) {
        try {
          await countdown(unified, countdownTime);
          covered.add(unified);
        } catch (error) {
          return refusal(error);
        }
      }
      armedMs = countdownTime;
      // Each market's countdown started when the venue took its request,
      // before this line: every one ends no later than now plus the countdown.
      return { armed: true, cancelsAtMs: Date.now() + countdownTime };
    },
    async cover(unified: string): Promise<void> {
      if (armedMs === null || covered.has(unified)) {
        return;
      }
      // Failing here leaves the market to the next push forward, as before the cover.
      await countdown(unified, armedMs).then(
        () => covered.add(unified),
        () => undefined,
      );
    },
    async disarm(): Promise<void> {
      armedMs = null;
      covered.clear();
      for (const unified of [...restingMarkets()]) {
        try {
          await countdown(unified, 0);
        } catch (error) {
          throw toVenueError(error, ASTER);
        }
      }
    },
  };
}

/** A refusal's answer in the venue's words; anything else (unreached, rate limited) rejects. */
function refusal(error: unknown): DeadManArming {
  const mapped = toVenueError(error, ASTER);
  if (!(mapped instanceof OrderRejectedError)) {
    throw mapped;
  }
  const message = error instanceof Error ? error.message : String(error);
  return { armed: false, reason: venueAnswer(message, ASTER) };
}
