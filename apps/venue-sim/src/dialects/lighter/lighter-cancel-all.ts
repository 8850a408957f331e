import type { HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import { deadManSwitchesOf, type DeadManSwitches } from '../../control/dead-man-switches';
import type { DialectDeps } from '../dialect';
import { LIGHTER, LighterError, type LighterAccount } from './lighter-accounts';
import { marketAt } from './lighter-markets';
import { accepted } from './lighter-order-views';
import { signed, type SignedTx } from './lighter-tx';

/** `L2CancelAllOrders`' transaction type (lighter-ts-sdk `TX_TYPE_CANCEL_ALL_ORDERS`). */
export const TX_CANCEL_ALL_ORDERS = 16;

/** Its time in force (lighter-ts-sdk `CANCEL_ALL_TIF_*`, lighter-go constants.go). */
export const CANCEL_ALL = { immediate: 0, scheduled: 1, abort: 2 } as const;

/**
 * How far ahead a scheduled cancel-all may be: 5 minutes to 15 days
 * (lighter-go types/txtypes/constants.go `MinOrderCancelAllPeriod`,
 * `MaxOrderCancelAllPeriod`; ccxt 4.5.84 lighter.js `cancelAllOrdersAfter`
 * checks the same bounds before it signs).
 */
export const CANCEL_ALL_PERIOD_MS = { min: 5 * 60_000, max: 15 * 86_400_000 } as const;

export interface CancelAllOrdersTx extends SignedTx {
  timeInForce: number;
  /** The scheduled time (epoch ms); 0 for an immediate cancel-all and an abort. */
  time: number;
}

/**
 * A cancel-all transaction, checked as lighter-go's `L2CancelAllOrders`
 * `Validate` checks it: an immediate one and an abort carry no time, a
 * scheduled one a time and no market (`CancelAllMarketIndexCantBeScheduled`).
 * The words are lighter-go's errors; the code (21501, invalid tx info) is
 * assumed, as the venue publishes none for them.
 */
export function parseCancelAllOrders(info: Record<string, unknown>): CancelAllOrdersTx {
  const base = signed(info);
  const invalid = (text: string) => new LighterError(400, 21501, `invalid tx info: ${text}`);
  const { TimeInForce: timeInForce, Time: time } = info;
  if (!Number.isSafeInteger(time) || (time as number) < 0) {
    throw invalid('CancelAllTime should be larger than 0 and not larger than 9223372036854775807');
  }
  switch (timeInForce) {
    case CANCEL_ALL.immediate:
    case CANCEL_ALL.abort:
      if (time !== 0) {
        throw invalid('CancelAllTime should be nil');
      }
      break;
    case CANCEL_ALL.scheduled:
      if (time === 0) {
        throw invalid(
          'CancelAllTime should be larger than 0 and not larger than 9223372036854775807',
        );
      }
      if (base.cancelAllMarketIndex !== undefined) {
        throw invalid('CancelAllMarketIndex can not be scheduled');
      }
      break;
    default:
      throw invalid('CancelAllTimeInForce is invalid');
  }
  return { ...base, timeInForce: timeInForce as number, time: time as number };
}

/**
 * Lighter's cancel-all: immediate (every open order of the account, or of
 * one market with the market attribute), scheduled (the dead-man switch:
 * every open order of the account at `time`, 5 minutes to 15 days ahead;
 * sending another moves it), or abort (takes the scheduled one off). A
 * scheduled time outside the bounds is refused (21501, words assumed).
 */
export class LighterCancelAll {
  readonly switches: DeadManSwitches;

  constructor(private readonly deps: DialectDeps) {
    this.switches = deadManSwitchesOf(deps);
  }

  execute(
    request: SignedRequest,
    account: LighterAccount,
    tx: CancelAllOrdersTx,
    onAccepted: () => void,
  ): Promise<HttpReply> {
    const order =
      tx.timeInForce === CANCEL_ALL.immediate ? { op: 'cancel' as const, fields: {} } : undefined;
    return this.deps.orders.execute(request, order, (venue) => {
      if (tx.timeInForce === CANCEL_ALL.scheduled) {
        const ahead = tx.time - Date.now();
        if (ahead < CANCEL_ALL_PERIOD_MS.min || ahead > CANCEL_ALL_PERIOD_MS.max) {
          throw new LighterError(400, 21501, 'invalid tx info: cancel all time is not in range');
        }
        this.switches.arm(LIGHTER, account.wallet, { cancelsAtMs: tx.time });
      } else if (tx.timeInForce === CANCEL_ALL.abort) {
        this.switches.disarm(LIGHTER, account.wallet);
      } else {
        const market =
          tx.cancelAllMarketIndex === undefined
            ? undefined
            : marketAt(venue, tx.cancelAllMarketIndex);
        for (const open of venue.registry.open(account.wallet)) {
          if (!market || open.symbol === market.spec.symbol) {
            venue.desk.cancel(account.wallet, { orderId: open.orderId });
          }
        }
      }
      onAccepted();
      return accepted(tx);
    });
  }
}
