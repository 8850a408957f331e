import type { Logger } from '@sts/platform';
import { VenueNetworkError } from '../errors';
import type { VenueEvents } from '../venue-events';
import { LocalBook } from './local-book';
import type { WireClientMessage, WireServerMessage } from './protocol';

/** A caller waiting for something the socket will bring, with its deadline. */
export interface Waiter<T = void> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface PaperBooksOptions {
  venue: string;
  bookDepth: number;
  events: VenueEvents;
  marketOf: (symbol: string) => string;
  send: (message: WireClientMessage) => void;
  logger?: Logger;
}

export type BookMessage = Extract<WireServerMessage, { type: 'book_snapshot' | 'book_delta' }>;

/**
 * The book channels of the paper stream: one local book per subscribed
 * market, built from a snapshot and kept by sequenced deltas; a gap in the
 * sequence asks for a fresh snapshot rather than show a wrong book.
 */
export class PaperBooks {
  private readonly books = new Map<string, LocalBook>();
  private readonly bookWaiters = new Map<string, Waiter[]>();

  constructor(private readonly options: PaperBooksOptions) {}

  /** Resolves at the first snapshot of the market. */
  subscribe(symbol: string, timeoutMs: number): Promise<void> {
    const existing = this.books.get(symbol);
    if (existing && existing.seq >= 0) {
      return Promise.resolve();
    }
    if (!this.books.has(symbol)) {
      this.books.set(
        symbol,
        new LocalBook(
          this.options.venue,
          symbol,
          this.options.marketOf(symbol),
          this.options.bookDepth,
        ),
      );
      this.options.send({ op: 'subscribe', channel: 'book', symbol });
    }
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new VenueNetworkError(this.options.venue, `no ${symbol} book within ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
      const waiters = this.bookWaiters.get(symbol) ?? [];
      waiters.push({ resolve, reject, timer });
      this.bookWaiters.set(symbol, waiters);
    });
  }

  unsubscribe(symbol: string): void {
    if (this.books.delete(symbol)) {
      this.options.send({ op: 'unsubscribe', channel: 'book', symbol });
    }
  }

  /** After a reconnect: every book waits for a fresh snapshot. */
  resubscribe(): void {
    for (const [symbol, book] of this.books) {
      book.seq = -1;
      this.options.send({ op: 'subscribe', channel: 'book', symbol });
    }
  }

  clear(): void {
    this.books.clear();
  }

  onMessage(message: BookMessage): void {
    const book = this.books.get(message.symbol);
    if (!book) {
      return;
    }
    if (message.type === 'book_snapshot') {
      book.snapshot(message.seq, message.bids, message.asks);
      for (const waiter of this.bookWaiters.get(message.symbol) ?? []) {
        clearTimeout(waiter.timer);
        waiter.resolve();
      }
      this.bookWaiters.delete(message.symbol);
    } else {
      const outcome = book.delta(message.seq, message.bids, message.asks);
      if (outcome === 'stale') {
        return;
      }
      if (outcome === 'gap') {
        // A lost delta: ask for a fresh snapshot rather than show a wrong book.
        this.options.logger?.warn(
          { venue: this.options.venue, symbol: message.symbol, seq: message.seq },
          'book sequence gap, resyncing',
        );
        book.seq = -1;
        this.options.send({ op: 'unsubscribe', channel: 'book', symbol: message.symbol });
        this.options.send({ op: 'subscribe', channel: 'book', symbol: message.symbol });
        return;
      }
    }
    this.options.events.emit('book', book.view(message.ts_ms));
  }
}
