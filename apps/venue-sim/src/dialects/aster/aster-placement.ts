import { SimError, type EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectProfile } from '../dialect-profiles';
import { clientIdForNewOrder, recordExpiredOnEntry } from './aster-client-ids';
import type { AsterNewOrder } from './aster-orders';
import type { ASTER_READINGS } from './aster-readings';

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
