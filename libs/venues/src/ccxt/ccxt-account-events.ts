import type { Order, Trade } from 'ccxt';
import type { VenueFill, VenueOrder } from '../model/orders';
import type { VenueEvents } from '../venue-events';
import type { CcxtMarketCache } from './ccxt-market-cache';
import { toFill, toOrder, venueClientOrderIdOf } from './ccxt-mapping';
import type { CcxtStreams } from './ccxt-streams';
import type { OrderTracker } from './order-tracker';

export interface CcxtAccountEventsOptions {
  venue: string;
  markets: CcxtMarketCache;
  tracker: OrderTracker;
  events: VenueEvents;
  streams: CcxtStreams;
  /** False when the venue's ccxt adapter streams orders but not trades. */
  tradeStream: boolean;
}

/**
 * Own orders and fills from ccxt structures to VenueClient events, with our
 * client order ids put back and each fill delivered once. On a venue without
 * a trade stream, the growth of an order's filled size is the fill.
 */
export class CcxtAccountEvents {
  constructor(private readonly options: CcxtAccountEventsOptions) {}

  onOrderUpdate(order: Order): void {
    const { events, tracker, streams } = this.options;
    const mapped = this.order(order);
    if (!this.options.tradeStream) {
      const derived = tracker.derivedFill(
        mapped.orderId,
        mapped.filledSize,
        mapped.averagePrice ?? mapped.price,
      );
      if (derived) {
        streams.noteAccountEvent(mapped.updatedAtMs);
        events.emit('fill', {
          exchange: this.options.venue,
          symbol: mapped.symbol,
          market: mapped.market,
          side: mapped.side,
          price: derived.price,
          size: derived.size,
          orderId: mapped.orderId,
          clientOrderId: mapped.clientOrderId,
          fullyFilled: mapped.status === 'filled',
          timestampMs: mapped.updatedAtMs,
          fillId: `${mapped.orderId}:${mapped.filledSize}`,
          liquidity: mapped.type === 'post_only' ? 'maker' : 'taker',
        });
      }
    }
    events.emit('order', mapped);
  }

  onTrade(trade: Trade): void {
    if (!trade.id || !this.options.tracker.firstSighting(trade.id)) return;
    this.options.streams.noteAccountEvent(trade.timestamp ?? Date.now());
    this.options.events.emit('fill', this.fill(trade, true));
  }

  /** A ccxt trade as a fill; `live` counts it toward its order's completion. */
  fill(trade: Trade, live: boolean): VenueFill {
    const { tracker, venue } = this.options;
    const { symbol, market } = this.options.markets.names(trade.symbol ?? undefined);
    const orderId = trade.order ?? '';
    const fullyFilled = live ? tracker.addFill(orderId, String(trade.amount)) : false;
    // An order this client never placed (a restart): the fill's own client id, where it has one.
    const carried = venueClientOrderIdOf(trade);
    return toFill(trade, {
      exchange: venue,
      symbol,
      market,
      clientOrderId: tracker.clientOrderIdOf(orderId) || (carried ? tracker.decode(carried) : ''),
      fullyFilled,
    });
  }

  order(order: Order): VenueOrder {
    const { tracker } = this.options;
    const { symbol, market } = this.options.markets.names(order.symbol ?? undefined);
    // Our id as placed wins over the venue's echo of it (which may be encoded).
    const known = order.id ? tracker.clientOrderIdOf(order.id) : '';
    const clientOrderId = known || tracker.decode(order.clientOrderId ?? undefined);
    if (order.id) {
      tracker.track(
        order.id,
        clientOrderId,
        order.amount === undefined ? undefined : String(order.amount),
      );
    }
    return toOrder(order, this.options.venue, symbol, market, clientOrderId);
  }
}
