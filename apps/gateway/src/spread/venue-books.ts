import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { AppError, PeriodicTask, withTimeout } from '@sts/platform';
import type { BookUpdate, VenueClient } from '@sts/venues';

/** Opens a venue's market-data client (not yet connected) under the given identity. */
export type OpenBookClient = (venue: string, identity: string) => Promise<VenueClient>;
export const OPEN_BOOK_CLIENT = Symbol('OPEN_BOOK_CLIENT');

/** A book nobody asked about for this long is unsubscribed (each costs an update stream). */
const IDLE_MS = 60_000;
const FIRST_BOOK_TIMEOUT_MS = 5_000;

export interface VenueTouch {
  bestBid: string;
  bestAsk: string;
  /** When the venue stamped the book. */
  timestampMs: number;
}

/**
 * One venue's books as the workers read them: a market-data VenueClient of
 * the gateway's own, a book stream per symbol opened on first read and kept
 * while it is read, the latest touch of each.
 */
class VenueBookFeed {
  private client?: Promise<VenueClient>;
  private readonly latest = new Map<string, BookUpdate>();
  private readonly subscriptions = new Map<string, { lastReadMs: number; ready: Promise<void> }>();

  constructor(
    private readonly venue: string,
    private readonly open: OpenBookClient,
    private readonly logger: Logger,
  ) {}

  async touch(symbol: string): Promise<VenueTouch> {
    const client = await this.connected();
    let subscription = this.subscriptions.get(symbol);
    if (!subscription) {
      subscription = {
        lastReadMs: Date.now(),
        ready: withTimeout(client.subscribeBook(symbol), FIRST_BOOK_TIMEOUT_MS),
      };
      this.subscriptions.set(symbol, subscription);
      subscription.ready.catch(() => this.subscriptions.delete(symbol));
    }
    subscription.lastReadMs = Date.now();
    await subscription.ready;
    const book = this.latest.get(symbol);
    if (!book?.bestBid || !book.bestAsk) {
      throw new Error(`no ${symbol} touch on ${this.venue} (empty side or stream reconnecting)`);
    }
    return { bestBid: book.bestBid, bestAsk: book.bestAsk, timestampMs: book.timestampMs };
  }

  async dropIdle(now: number): Promise<void> {
    const client = await this.client?.catch(() => undefined);
    for (const [symbol, subscription] of this.subscriptions) {
      if (now - subscription.lastReadMs > IDLE_MS) {
        this.subscriptions.delete(symbol);
        this.latest.delete(symbol);
        await client?.unsubscribeBook(symbol).catch(() => undefined);
      }
    }
  }

  async close(): Promise<void> {
    const client = await this.client?.catch(() => undefined);
    await client?.close();
  }

  private connected(): Promise<VenueClient> {
    this.client ??= (async () => {
      // Paper venues sign every socket: the gateway's reader registers an identity of its own.
      const client = await this.open(this.venue, `gateway-books-${randomBytes(6).toString('hex')}`);
      client.on('book', (update) => this.latest.set(update.symbol, update));
      client.on('connection', (event) => {
        if (event.state === 'disconnected') {
          this.logger.warn({ venue: this.venue, reason: event.reason }, 'book stream lost');
          this.latest.clear();
        }
      });
      await withTimeout(client.connect(), FIRST_BOOK_TIMEOUT_MS);
      return client;
    })().catch((error: unknown) => {
      this.client = undefined;
      throw error;
    });
    return this.client;
  }
}

/** Every venue's feed, opened on first read; unreadable books are 503 with the venue as reason. */
@Injectable()
export class VenueBooks implements OnModuleDestroy {
  private readonly logger = new Logger(VenueBooks.name);
  private readonly feeds = new Map<string, VenueBookFeed>();
  private readonly sweeper = new PeriodicTask(() => this.dropIdle(), {
    intervalMs: IDLE_MS / 2,
    onError: (error) => this.logger.warn({ err: error }, 'book sweep failed'),
  });

  constructor(@Inject(OPEN_BOOK_CLIENT) private readonly open: OpenBookClient) {}

  async touch(venue: string, symbol: string): Promise<VenueTouch> {
    let feed = this.feeds.get(venue);
    if (!feed) {
      feed = new VenueBookFeed(venue, this.open, this.logger);
      this.feeds.set(venue, feed);
      this.sweeper.start();
    }
    try {
      return await feed.touch(symbol);
    } catch (error) {
      this.logger.warn({ venue, symbol, err: error }, 'book unreadable');
      throw new AppError('service_unavailable', `the ${symbol} book of ${venue} cannot be read`, {
        reason: venue,
        cause: error,
      });
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.sweeper.stop();
    await Promise.all([...this.feeds.values()].map((feed) => feed.close()));
    this.feeds.clear();
  }

  private async dropIdle(): Promise<void> {
    const now = Date.now();
    for (const feed of this.feeds.values()) {
      await feed.dropIdle(now);
    }
  }
}
