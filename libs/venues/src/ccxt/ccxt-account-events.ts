import type { Order, Trade } from 'ccxt';
import { isResting, type VenueFill, type VenueOrder } from '../model/orders';
import type { VenueEvents } from '../venue-events';
import type { CcxtMarketCache } from './ccxt-market-cache';
import { toFill, toOrder, venueClientOrderIdOf } from './ccxt-mapping';
import type { CcxtStreams } from './ccxt-streams';
import { CANCEL_FATE_ON_STREAM, ORDER_FATES } from './order-fate';
import type { OrderTracker } from './order-tracker';
import type { RestingMarkets } from './resting-markets';
import { QUEUED_ACK } from './queued-orders';
import { sleep } from '@sts/platform';

export interface CcxtAccountEventsOptions {
  venue: string;
  markets: CcxtMarketCache;
  tracker: OrderTracker;
  events: VenueEvents;
  streams: CcxtStreams;
  /** False when the venue's ccxt adapter streams orders but not trades. */
  tradeStream: boolean;
  /**
   * Without a trade stream: the venue's own fills of an order whose filled
   * size grew (a REST read), so a streamed fill carries the same id as the
   * same fill read back by `fillsSince` (an id made up from the growth would
   * not, and a fill read back under another id is counted twice).
   */
  readFills: (order: Order) => Promise<Trade[]>;
  /** Budget tokens one `readFills` costs (what the venue weighs a fills read). */
  fillReadTokens: number;
  /** Where our orders may rest: an order seen closed no longer holds its market. */
  resting: RestingMarkets;
  logger?: { warn(fields: object, message: string): void };
}

/** Tries of `readFills` before a fill is left to the caller's read-back. */
const READ_FILLS_TRIES = 5;
const READ_FILLS_BACKOFF_MS = 100;

/**
 * Own orders and fills from ccxt structures to VenueClient events, with our
 * client order ids put back and each fill delivered once. On a venue without
 * a trade stream, an order's filled size growing is when its new fills are read.
 */
export class CcxtAccountEvents {
  /** Order updates whose fills are being read, in arrival order. */
  private fillReads: Promise<void> = Promise.resolve();

  /**
   * Whether this venue's placements (it queues order requests) or cancels
   * (CANCEL_FATE_ON_STREAM) learn their fate from the stream too.
   */
  private readonly fateFromStream: boolean;

  constructor(private readonly options: CcxtAccountEventsOptions) {
    this.fateFromStream = QUEUED_ACK.has(options.venue) || CANCEL_FATE_ON_STREAM.has(options.venue);
  }

  /** Whether the account stream is up: an order's update can come on it now (else it is read). */
  streamUp(): boolean {
    return this.options.streams.accountStreamUp();
  }

  onOrderUpdate(order: Order): void {
    if (this.fateFromStream) {
      // A placement (queued-orders.ts) or a cancel (ccxt-cancel.ts) waiting for its fate learns it here.
      ORDER_FATES.note(this.options.venue, order);
    }
    if (this.options.tradeStream) {
      this.options.events.emit('order', this.order(order));
      return;
    }
    this.fillReads = this.fillReads.then(() => this.withVenueFills(order));
  }

  /** An order update, after the venue's fills of it that are new (its filled size grew). */
  private async withVenueFills(order: Order): Promise<void> {
    const { tracker, events } = this.options;
    const mapped = this.order(order);
    if (tracker.filledGrew(mapped.orderId, mapped.filledSize)) {
      for (let attempt = 1; attempt <= READ_FILLS_TRIES; attempt += 1) {
        try {
          // Sent now, unpaid (the fill must not wait for a token), and only then
          // announced: its owner pays after, and nothing runs before the read leaves.
          const reading = this.options.readFills(order);
          events.emit('unpaid', {
            clientOrderId: mapped.clientOrderId,
            requests: 1,
            tokens: this.options.fillReadTokens,
          });
          const trades = await reading;
          const own = trades
            .filter((trade) => trade.order === mapped.orderId)
            .sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0));
          for (const trade of own) {
            this.onTrade(trade);
          }
          break;
        } catch (error) {
          if (attempt === READ_FILLS_TRIES) {
            this.options.logger?.warn(
              { venue: this.options.venue, orderId: mapped.orderId, err: String(error) },
              'fills of an order could not be read; fillsSince will find them',
            );
          } else {
            await sleep(READ_FILLS_BACKOFF_MS * attempt);
          }
        }
      }
    }
    events.emit('order', this.order(order));
  }

  onTrade(trade: Trade): void {
    if (!trade.id || !this.options.tracker.firstSighting(trade.id)) {
      return;
    }
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
    const mapped = toOrder(order, this.options.venue, symbol, market, clientOrderId);
    if (clientOrderId && !isResting(mapped)) {
      this.options.resting.settled(clientOrderId);
    }
    return mapped;
  }
}
