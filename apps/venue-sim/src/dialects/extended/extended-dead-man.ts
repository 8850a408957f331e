import type { HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import { deadManSwitchesOf, type DeadManSwitches } from '../../control/dead-man-switches';
import type { DialectDeps } from '../dialect';
import { ExtendedError } from './extended-accounts';
import { EXTENDED } from './extended-orders';

/** The longest countdown the simulator takes: a day (the venue publishes no bound). */
const MAX_COUNTDOWN_S = 86_400;

/**
 * Extended's dead-man switch, "Mass auto-cancel (dead man's switch)"
 * (api.docs.extended.exchange/#mass-auto-cancel-dead-man-39-s-switch, as
 * ccxt 4.5.84 extended.js `cancelAllOrdersAfter` sends it): `POST
 * /api/v1/user/deadmanswitch?countdownTime=<seconds>`, the countdown in the
 * query; `0` takes the switch off; every call starts the countdown again.
 * The answer is an empty body (ccxt: "the endpoint answers with an empty
 * string body"). When the countdown ends every open order of the account is
 * canceled (dead-man-switches.ts). A countdown that is no whole number of
 * seconds, negative or over a day is refused with 1133 (assumed: the venue
 * publishes neither the bounds nor the refusal).
 */
export class ExtendedDeadMan {
  readonly switches: DeadManSwitches;

  constructor(private readonly deps: DialectDeps) {
    this.switches = deadManSwitchesOf(deps);
  }

  countdown(request: SignedRequest, countdownTime: string | null): Promise<HttpReply> {
    const seconds = /^\d{1,9}$/.test(countdownTime ?? '') ? Number(countdownTime) : NaN;
    if (!Number.isSafeInteger(seconds) || seconds > MAX_COUNTDOWN_S) {
      throw new ExtendedError(400, 1133, 'Invalid countdownTime.');
    }
    return this.deps.orders.execute(request, undefined, () => {
      if (seconds === 0) {
        this.switches.disarm(EXTENDED, request.accountId);
      } else {
        this.switches.arm(EXTENDED, request.accountId, {
          cancelsAtMs: Date.now() + seconds * 1000,
        });
      }
      return { status: 200, body: undefined };
    });
  }
}
