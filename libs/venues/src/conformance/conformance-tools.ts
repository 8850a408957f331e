import Big from 'big.js';
import type { BookUpdate } from '../model/book';
import type { VenueMarket } from '../model/market';
import type { VenueClient, VenueEventMap, VenueEventType } from '../venue-client';
import { sleep } from '@sts/platform';

/** Collects a client's events so tests can wait for one. */
export class EventLog {
  readonly events: { [K in VenueEventType]: Array<VenueEventMap[K]> } = {
    fill: [],
    order: [],
    book: [],
    connection: [],
    unpaid: [],
  };
  private readonly unsubscribe: Array<() => void> = [];

  constructor(client: VenueClient) {
    for (const type of ['fill', 'order', 'book', 'connection', 'unpaid'] as const) {
      this.unsubscribe.push(
        client.on(type, (event) => (this.events[type] as unknown[]).push(event)),
      );
    }
  }

  async waitFor<K extends VenueEventType>(
    type: K,
    predicate: (event: VenueEventMap[K]) => boolean,
    timeoutMs = 5_000,
  ): Promise<VenueEventMap[K]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (this.events[type] as Array<VenueEventMap[K]>).find(predicate);
      if (found) {
        return found;
      }
      if (Date.now() > deadline) {
        throw new Error(`no matching ${type} event within ${timeoutMs} ms`);
      }
      await sleep(5);
    }
  }

  /** Resolves once no event of `type` arrived for `quietMs`, or after `maxMs` at most. */
  async quiet(type: VenueEventType, quietMs: number, maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    let count = -1;
    while (Date.now() < deadline && count !== this.events[type].length) {
      count = this.events[type].length;
      await sleep(quietMs);
    }
  }

  latestBook(symbol: string): BookUpdate | undefined {
    return [...this.events.book].reverse().find((book) => book.symbol === symbol);
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe) {
      unsubscribe();
    }
  }
}

/** Unique client order ids per run, so a live venue never sees one twice. */
export function clientOrderIds(prefix: string): () => string {
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  let count = 0;
  return () => `${prefix}-${run}-${(count += 1)}`;
}

/** The smallest order size that meets the market's minimum size and notional at `price`. */
export function minimumSize(market: VenueMarket, price: string): string {
  const lot = new Big(market.entry.lot_size);
  let size = new Big(market.entry.min_size);
  if (market.entry.min_notional) {
    const needed = new Big(market.entry.min_notional).div(price);
    if (size.lt(needed)) {
      size = needed.div(lot).round(0, Big.roundUp).times(lot);
    }
  }
  return size.times(1.2).div(lot).round(0, Big.roundUp).times(lot).toFixed();
}

export const plus = (a: string, b: string): string => new Big(a).plus(b).toFixed();
export const minus = (a: string, b: string): string => new Big(a).minus(b).toFixed();
export const times = (a: string, n: number): string => new Big(a).times(n).toFixed();
export const sum = (values: string[]): string =>
  values.reduce((total, value) => total.plus(value), new Big(0)).toFixed();
