import type { Order, OrderBook, Trade } from 'ccxt';
import type { Logger } from '@sts/platform';
import type { BookUpdate } from '../model/book';
import type { VenueEvents } from '../venue-events';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { ConnectionSignal, WatchLoop } from './watch-loop';

export interface CcxtStreamsOptions {
  exchange: CcxtExchangeLike;
  events: VenueEvents;
  depth: number;
  onOrders: (orders: Order[]) => void;
  onTrades: (trades: Trade[]) => void;
  bookOf: (book: OrderBook, unified: string, seq: number) => BookUpdate;
  logger?: Logger;
}

const LOOP_TIMING = { initialBackoffMs: 250, maxBackoffMs: 10_000, graceMs: 1_500 };

/**
 * The live client's ccxt pro watch loops: own orders and fills for the
 * account, and one book loop per subscribed market. Venues whose ccxt
 * adapter has no trade stream get their fills derived from order updates
 * (CcxtVenueClient).
 */
export class CcxtStreams {
  private readonly signal: ConnectionSignal;
  private readonly books = new Map<string, WatchLoop<OrderBook>>();
  private account: Array<WatchLoop<Order[]> | WatchLoop<Trade[]>> = [];
  private bookSeq = 0;

  constructor(private readonly options: CcxtStreamsOptions) {
    this.signal = new ConnectionSignal(options.events);
  }

  noteAccountEvent(venueTimeMs: number): void {
    this.signal.noteAccountEvent(venueTimeMs);
  }

  /** Whether the account's streams are watched and up: an order's update can come on them now. */
  accountStreamUp(): boolean {
    return this.account.length > 0 && this.signal.up;
  }

  startAccount(): void {
    if (this.account.length > 0) {
      return;
    }
    const { exchange } = this.options;
    const loops: Array<WatchLoop<Order[]> | WatchLoop<Trade[]>> = [
      this.loop<Order[]>(
        'orders',
        () => exchange.watchOrders(),
        (orders) => this.options.onOrders(orders),
      ),
    ];
    if (exchange.has['watchMyTrades'] && exchange.watchMyTrades) {
      const watchMyTrades = exchange.watchMyTrades.bind(exchange);
      loops.push(
        this.loop<Trade[]>(
          'my trades',
          () => watchMyTrades(),
          (trades) => this.options.onTrades(trades),
        ),
      );
    }
    this.account = loops;
    loops.forEach((loop) => loop.start());
    this.options.events.emit('connection', { state: 'connected', atMs: Date.now() });
  }

  /**
   * Resolves once the first book of the market arrived. A market ccxt still
   * holds a book of (watched before, the venue's subscription kept) is
   * answered from it at once: ccxt would otherwise wait for the book's next
   * change, which on a quiet market may be long.
   */
  watchBook(unified: string): Promise<void> {
    if (this.books.has(unified)) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      let first = true;
      const deliver = (book: OrderBook): void => {
        this.bookSeq += 1;
        this.options.events.emit('book', this.options.bookOf(book, unified, this.bookSeq));
        if (first) {
          first = false;
          resolve();
        }
      };
      const loop = this.loop<OrderBook>(
        `book ${unified}`,
        () => this.options.exchange.watchOrderBook(unified, this.options.depth),
        deliver,
      );
      this.books.set(unified, loop);
      loop.start();
      const cached = this.options.exchange.orderbooks?.[unified];
      if (cached && cached.bids.length > 0 && cached.asks.length > 0) {
        deliver(cached);
      }
    });
  }

  unwatchBook(unified: string): void {
    this.books.get(unified)?.stop();
    this.books.delete(unified);
  }

  stop(): void {
    this.account.forEach((loop) => loop.stop());
    this.account = [];
    this.books.forEach((loop) => loop.stop());
    this.books.clear();
  }

  private loop<T>(name: string, watch: () => Promise<T>, onData: (data: T) => void): WatchLoop<T> {
    return new WatchLoop<T>({
      name,
      watch,
      onData,
      signal: this.signal,
      ...LOOP_TIMING,
      onError: (error) =>
        this.options.logger?.warn(
          { stream: name, err: error instanceof Error ? error.message : String(error) },
          'live venue stream failed',
        ),
    });
  }
}
