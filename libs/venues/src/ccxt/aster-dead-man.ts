import { OrderRejectedError } from '../errors';
import type { DeadManArming, DeadManSwitch } from '../venue-client';
import type { CcxtExchangeLike } from './ccxt-exchange';
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
 * client placed orders on (`tradedMarkets`: ccxt symbols), one request of
 * weight 10 each (ccxt counts it as cost 1), one after another (ccxt's v3
 * nonce is the time in microseconds). With no market traded yet there is no
 * order of this client to cancel: the arming holds vacuously, and the next
 * push forward covers a market traded since. A refusal of any market is the
 * answer `{armed: false, reason}` (markets armed before it stay armed: the
 * safe side); a failure to reach the venue rejects.
 */
export function asterDeadManSwitch(
  exchange: CcxtExchangeLike,
  tradedMarkets: () => Iterable<string>,
): DeadManSwitch {
  const ccxt = exchange as unknown as AsterDeadManExchange;
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
      for (const unified of [...tradedMarkets()]) {
        try {
          await countdown(unified, countdownTime);
        } catch (error) {
          return refusal(error);
        }
      }
      // Each market's countdown started when the venue took its request,
      // before this line: every one ends no later than now plus the countdown.
      return { armed: true, cancelsAtMs: Date.now() + countdownTime };
    },
    async disarm(): Promise<void> {
      for (const unified of [...tradedMarkets()]) {
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
