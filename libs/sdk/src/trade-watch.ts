import type { StsEventStream } from './event-stream';
import { TERMINAL_STATUSES, type Trade, type TradeEvent, type TradeEvents } from './types';

/** What following a trade reads of the API (StsClient has it). */
export interface TradeReader {
  getTrade(tradeId: string): Promise<Trade>;
  tradeEvents(tradeId: string, page?: { afterSequence?: number }): Promise<TradeEvents>;
}

/**
 * What a watch hands over, in order: the trade on the first read and whenever
 * its status or filled size changed, each new execution-log entry, and last
 * `end` with the trade in its final status. A trade handed over is at least as
 * new as every entry handed over after it until the next one: when an entry
 * (a fill, say) arrives, the trade already given counts it.
 */
export type TradeWatchUpdate =
  | { type: 'trade'; trade: Trade }
  | { type: 'event'; event: TradeEvent }
  | { type: 'end'; trade: Trade };

export interface WatchTradeOptions {
  /** Read the execution log too (default true). */
  events?: boolean;
  /** Start the log after this sequence (default 0: from the first entry). */
  afterSequence?: number;
  /** Longest wait between two reads when no socket event wakes the watch. Default 1 s. */
  intervalMs?: number;
  /**
   * A notifier stream of the caller's to wake on (the trade is subscribed on it).
   * Without one, StsClient opens its own when it knows the notifier's URL.
   */
  stream?: StsEventStream;
}

/**
 * Follows a trade to its end. The notifier's lifecycle events and, when the
 * log is read, the trade's fills (a fill changes no status) wake the watch at
 * once; the API is read on each wake-up, as soon as the socket is subscribed
 * again after a reconnect, and at least every `intervalMs`: the socket is a
 * hint, the API the record, so nothing is missed while the socket
 * reconnects, or when there is no socket at all (polling alone).
 */
export async function* watchTrade(
  reader: TradeReader,
  tradeId: string,
  options: WatchTradeOptions = {},
  openStream?: () => StsEventStream,
): AsyncGenerator<TradeWatchUpdate, void, undefined> {
  const owned = options.stream ? undefined : openStream?.();
  const events = options.events ?? true;
  const wakeups = new Wakeups(options.stream ?? owned, tradeId, events);
  let previous: Trade | undefined;
  let afterSequence = options.afterSequence ?? 0;
  try {
    for (;;) {
      // The log before the trade: the trade read after it counts every entry read.
      const entries = events ? await newEntries(reader, tradeId, afterSequence) : [];
      const trade = await reader.getTrade(tradeId);
      if (trade.status !== previous?.status || trade.filled_size !== previous.filled_size) {
        yield { type: 'trade', trade };
      }
      previous = trade;
      if (TERMINAL_STATUSES.has(trade.status) && events) {
        // What the ending wrote to the log came after the read above.
        entries.push(
          ...(await newEntries(reader, tradeId, entries.at(-1)?.sequence ?? afterSequence)),
        );
      }
      for (const event of entries) {
        afterSequence = event.sequence;
        yield { type: 'event', event };
      }
      if (TERMINAL_STATUSES.has(trade.status)) {
        yield { type: 'end', trade };
        return;
      }
      await wakeups.wait(options.intervalMs ?? 1000);
    }
  } finally {
    wakeups.close();
    owned?.close();
  }
}

/** Every log entry after `afterSequence`, page after page. */
async function newEntries(
  reader: TradeReader,
  tradeId: string,
  afterSequence: number,
): Promise<TradeEvent[]> {
  const entries: TradeEvent[] = [];
  for (let after = afterSequence; ;) {
    const page = await reader.tradeEvents(tradeId, { afterSequence: after });
    entries.push(...page.events);
    if (!page.has_more || page.events.length === 0) {
      return entries;
    }
    after = page.next_after_sequence ?? page.events.at(-1)!.sequence;
  }
}

/**
 * The notifier's events of one trade, and its fills when asked, as wake-ups
 * (none without a stream: the interval alone).
 */
class Wakeups {
  private wake?: () => void;
  /** An event came while the watch was reading the API: the next wait ends at once. */
  private missed = false;
  private readonly stopListening: Array<() => void> = [];

  constructor(stream: StsEventStream | undefined, tradeId: string, fills: boolean) {
    if (!stream) {
      return;
    }
    const ofTrade = (item: object) => 'trade_id' in item && item.trade_id === tradeId;
    this.stopListening.push(stream.onEvent((event) => ofTrade(event) && this.poke()));
    stream.subscribe(tradeId);
    if (fills) {
      this.stopListening.push(stream.onFill((fill) => ofTrade(fill) && this.poke()));
      stream.subscribeFills(tradeId);
    }
    // What happened between the first read and the subscription, or while the
    // socket reconnected (the notifier does not replay it): read once more.
    this.stopListening.push(stream.onSubscribed(() => this.poke()));
  }

  /** Resolves after `ms`, or at once when an event of the trade arrives (or arrived meanwhile). */
  wait(ms: number): Promise<void> {
    if (this.missed) {
      this.missed = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.settle(resolve), ms);
      this.wake = () => {
        clearTimeout(timer);
        this.settle(resolve);
      };
    });
  }

  close(): void {
    this.wake = undefined;
    for (const stop of this.stopListening) {
      stop();
    }
  }

  private poke(): void {
    if (this.wake) {
      this.wake();
    } else {
      this.missed = true;
    }
  }

  private settle(resolve: () => void): void {
    this.wake = undefined;
    resolve();
  }
}
