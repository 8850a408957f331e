import { randomBytes } from 'node:crypto';
import type { VenueId } from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { BookLevel, BookUpdate, VenueClient, VenueMarket } from '@sts/venues';
import { monotonicClock } from '../clock';
import type { VenueClientFactory } from './venue-client-factory';

export interface BookListener {
  /** `receivedAtMs`: when the worker got the update (monotonic), for latency figures. */
  onBook(update: BookUpdate, receivedAtMs: number): void;
  /** The feed lost its socket: the last book may be stale until the next update. */
  onStale(): void;
}

/** Runs the delivery of one update to its listeners (the worker gives it a step slice of its own). */
export type FanOut = (deliver: () => void) => void;

/**
 * A symbol's listeners, delivered to group by group: a group is the account
 * the listeners' trades quote on, so one account's re-quotes follow each
 * other in a burst and can share a write (FrameCoalescer).
 */
class ListenerGroups {
  private readonly groups = new Map<string, Set<BookListener>>();

  get size(): number {
    let size = 0;
    for (const group of this.groups.values()) {
      size += group.size;
    }
    return size;
  }

  add(group: string, listener: BookListener): void {
    let members = this.groups.get(group);
    if (!members) {
      members = new Set();
      this.groups.set(group, members);
    }
    members.add(listener);
  }

  /** False when the listener was not there. */
  delete(group: string, listener: BookListener): boolean {
    const members = this.groups.get(group);
    if (!members?.delete(listener)) {
      return false;
    }
    if (members.size === 0) {
      this.groups.delete(group);
    }
    return true;
  }

  forEach(deliver: (listener: BookListener) => void): void {
    for (const members of this.groups.values()) {
      for (const listener of members) {
        deliver(listener);
      }
    }
  }
}

/**
 * One venue's public market data for the whole worker: market rules and the
 * books of the symbols its trades need, on one socket, fanned out to every
 * trade. (Paper venues sign every socket, so the feed has its own identity.)
 */
export class MarketDataFeed {
  private client?: VenueClient;
  private readonly listeners = new Map<string, ListenerGroups>();
  private readonly subscribing = new Map<string, Promise<void>>();
  private readonly latest = new Map<string, BookUpdate>();
  private markets = new Map<string, VenueMarket>();
  private connecting?: Promise<void>;

  constructor(
    readonly venue: VenueId,
    private readonly factory: VenueClientFactory,
    private readonly workerId: string,
    private readonly logger: Logger,
    private readonly fanOut: FanOut = (run) => run(),
  ) {}

  connect(): Promise<void> {
    this.connecting ??= this.open().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    if (!this.client) {
      // Paper venues sign every socket: the feed registers an identity of its own.
      // Live market data is public and needs no credential (and, of no account, it is read
      // from the egress plan's public egress).
      const identity = `md-${this.workerId}-${randomBytes(4).toString('hex')}`;
      const client = await this.factory.create(
        this.venue,
        this.factory.mode(this.venue) === 'paper'
          ? { apiKey: identity, apiSecret: randomBytes(16).toString('hex'), wallet: identity }
          : { apiKey: '', apiSecret: '', wallet: '' },
        // Trades read the touch and the levels behind it (MarketView: the others' touch when
        // their own orders are all there is at the top); deeper ones would be copied for nothing.
        { bookDepth: TOP_LEVELS },
      );
      client.on('book', (update) => {
        const receivedAtMs = monotonicClock.now();
        const previous = this.latest.get(update.symbol);
        this.latest.set(update.symbol, update);
        // Trades read only the top (sameTop): deeper levels moving would wake every
        // listener for nothing. After a disconnect `latest` is empty, so the first
        // book goes out and makes them fresh again.
        if (previous !== undefined && sameTop(previous, update)) {
          return;
        }
        const listeners = this.listeners.get(update.symbol);
        if (listeners) {
          this.fanOut(() => listeners.forEach((listener) => listener.onBook(update, receivedAtMs)));
        }
      });
      client.on('connection', (event) => {
        if (event.state !== 'disconnected') {
          return;
        }
        this.logger.warn(
          { venue: this.venue, reason: event.reason },
          'market data stream disconnected',
        );
        this.latest.clear();
        for (const groups of this.listeners.values()) {
          groups.forEach((listener) => listener.onStale());
        }
      });
      this.client = client;
    }
    await this.client.connect();
    await this.refreshMarkets();
  }

  /** The venue's entry for a canonical market, read again once if it is not known yet. */
  async market(canonical: string): Promise<VenueMarket | undefined> {
    await this.connect();
    if (!this.markets.has(canonical)) {
      await this.refreshMarkets();
    }
    return this.markets.get(canonical);
  }

  /**
   * Starts following a symbol's book; resolves once a first book is in.
   * `group`: the account the listener's trade quotes on (its updates are
   * delivered next to those of the account's other trades).
   */
  async watch(symbol: string, listener: BookListener, group = ''): Promise<() => void> {
    await this.connect();
    let groups = this.listeners.get(symbol);
    if (!groups) {
      groups = new ListenerGroups();
      this.listeners.set(symbol, groups);
    }
    groups.add(group, listener);
    const unwatch = (): void => {
      const current = this.listeners.get(symbol);
      if (!current?.delete(group, listener) || current.size > 0) {
        return;
      }
      this.listeners.delete(symbol);
      this.latest.delete(symbol);
      void this.client?.unsubscribeBook(symbol).catch(() => undefined);
    };
    try {
      let subscribing = this.subscribing.get(symbol);
      if (!subscribing) {
        subscribing = this.client!.subscribeBook(symbol).finally(() =>
          this.subscribing.delete(symbol),
        );
        this.subscribing.set(symbol, subscribing);
      }
      await subscribing;
    } catch (error) {
      unwatch();
      throw error;
    }
    return unwatch;
  }

  /** The last book of a symbol, if one arrived since the feed was last connected. */
  book(symbol: string): BookUpdate | undefined {
    return this.latest.get(symbol);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.client?.close();
  }

  private async refreshMarkets(): Promise<void> {
    const markets = await this.client!.markets();
    this.markets = new Map(markets.map((market) => [market.canonical, market]));
  }
}

/** One feed per venue, opened on first use. */
export class MarketData {
  private readonly feeds = new Map<VenueId, MarketDataFeed>();

  constructor(
    private readonly factory: VenueClientFactory,
    private readonly workerId: string,
    private readonly logger: Logger,
    private readonly fanOut?: FanOut,
  ) {}

  feed(venue: VenueId): MarketDataFeed {
    let feed = this.feeds.get(venue);
    if (!feed) {
      feed = new MarketDataFeed(venue, this.factory, this.workerId, this.logger, this.fanOut);
      this.feeds.set(venue, feed);
    }
    return feed;
  }

  async closeAll(): Promise<void> {
    const feeds = [...this.feeds.values()];
    this.feeds.clear();
    await Promise.all(feeds.map((feed) => feed.close().catch(() => undefined)));
  }
}

/** The levels of a side a trade reads: its own order and the one it replaces, then the others'. */
const TOP_LEVELS = 3;

/**
 * The part of a book a trade reads: each side's first levels' prices, and
 * the sizes of all but the last (which tell the trade's own orders from the
 * others' there).
 */
function sameTop(previous: BookUpdate, update: BookUpdate): boolean {
  if (previous.bestBid !== update.bestBid || previous.bestAsk !== update.bestAsk) {
    return false;
  }
  return sameLevels(previous.bids, update.bids) && sameLevels(previous.asks, update.asks);
}

function sameLevels(previous: BookLevel[], levels: BookLevel[]): boolean {
  for (let i = 0; i < TOP_LEVELS; i += 1) {
    if (previous[i]?.price !== levels[i]?.price) {
      return false;
    }
    if (i < TOP_LEVELS - 1 && previous[i]?.size !== levels[i]?.size) {
      return false;
    }
  }
  return true;
}
