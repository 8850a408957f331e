import { SimError, type EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectProfile } from '../dialect-profiles';
import { clientIdForNewOrder, recordExpiredOnEntry } from './aster-client-ids';
import type { AsterNewOrder } from './aster-orders';
import { AsterError } from './aster-errors';
import type { ASTER_READINGS } from './aster-readings';
import { asterOrder, type AsterTif } from './aster-wire';

/**
 * A new order on the engine, as Aster takes it: its client id unique among
 * open orders only (aster-client-ids.ts), and a GTX order that would cross
 * refused (-5022) or, under `post_only_cross=expire`, recorded and expired at
 * once with nothing filled (Binance futures' way before March 2023).
 */
export class AsterPlacement {
  private expiredSeq = 0;

  constructor(
    private readonly profile: DialectProfile<typeof ASTER_READINGS>,
    /** Streams an order expired on entry (ORDER_TRADE_UPDATE NEW, then EXPIRED). */
    private readonly expired: (order: EngineOrder) => void,
  ) {}

  /**
   * `newOrderRespType` as sent (New Order: "ACK", "RESULT", default "ACK";
   * anything else -1136), or the `placement_answer` reading where it is not.
   */
  answerOf(params: Record<string, string>): 'ack' | 'result' {
    const asked = params['newOrderRespType'];
    if (asked === undefined || asked === '') {
      return this.profile.get('placement_answer');
    }
    if (asked !== 'ACK' && asked !== 'RESULT') {
      throw new AsterError('invalidNewOrderRespType');
    }
    return asked === 'ACK' ? 'ack' : 'result';
  }

  /**
   * The placement's answer: under RESULT the order as it stands after
   * matching ("the final status result of the order (FILLED or EXPIRED)" for
   * an IOC or GTX); under ACK the order as the venue took it, before
   * matching: NEW, nothing executed, as the New Order example shows. Its
   * fate follows on reads and the user data stream.
   */
  answer(venue: VenueEngine, placed: EngineOrder, tif: AsterTif, answer: 'ack' | 'result') {
    const body = asterOrder(venue, placed, tif);
    if (answer === 'result') {
      return body;
    }
    const zero = '0';
    return {
      ...body,
      status: 'NEW',
      avgPrice: zero,
      executedQty: zero,
      cumQty: zero,
      cumQuote: zero,
      updateTime: placed.createdAtMs,
    };
  }

  /** Runs inside the order path's engine step: the check of open ids and the placement are one instant. */
  place(venue: VenueEngine, accountId: string, order: AsterNewOrder): EngineOrder {
    const command = {
      ...order.command,
      clientOrderId: clientIdForNewOrder(venue, accountId, order.command),
    };
    try {
      return venue.desk.place(accountId, command).order;
    } catch (error) {
      const crossing = error instanceof SimError && error.code === 'post_only_would_cross';
      if (!crossing || order.tif !== 'GTX' || this.profile.get('post_only_cross') !== 'expire') {
        throw error;
      }
      this.expiredSeq += 1;
      const expired = recordExpiredOnEntry(venue, accountId, command, this.expiredSeq);
      this.expired(expired);
      return expired;
    }
  }
}
