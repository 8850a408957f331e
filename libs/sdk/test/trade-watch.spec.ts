import {
  watchTrade,
  type Trade,
  type TradeEvent,
  type TradeReader,
  type TradeWatchUpdate,
} from '../src';

/**
 * A trade as the API holds it: its row and its execution log, changed together
 * as the worker's one statement does. `afterRead` lets a spec commit a change
 * at a chosen moment of a watch's pass, between two of its reads.
 */
class RecordedTrade {
  status: Trade['status'] = 'active';
  filled = 0;
  readonly log: TradeEvent[] = [];
  readonly reads: string[] = [];
  afterRead?: (read: 'trade' | 'events', count: number) => void;

  commit(change: { filled?: number; status?: Trade['status']; entry: string }): void {
    this.filled = change.filled ?? this.filled;
    this.status = change.status ?? this.status;
    this.log.push({
      trade_id: 'trade-1',
      sequence: this.log.length + 1,
      event_type: change.entry,
      data: { filled_size: String(this.filled) },
      created_at: new Date(1_700_000_000_000 + this.log.length).toISOString(),
    } as unknown as TradeEvent);
  }

  readonly reader: TradeReader = {
    getTrade: async () => {
      const trade = {
        trade_id: 'trade-1',
        status: this.status,
        filled_size: String(this.filled),
      } as unknown as Trade;
      this.read('trade');
      return trade;
    },
    tradeEvents: async (_, page) => {
      const events = this.log.filter((entry) => entry.sequence > (page?.afterSequence ?? 0));
      this.read('events');
      return { events, has_more: false } as unknown as Awaited<
        ReturnType<TradeReader['tradeEvents']>
      >;
    },
  };

  private read(what: 'trade' | 'events'): void {
    this.reads.push(what);
    this.afterRead?.(what, this.reads.filter((read) => read === what).length);
  }
}

async function follow(trade: RecordedTrade): Promise<TradeWatchUpdate[]> {
  const updates: TradeWatchUpdate[] = [];
  for await (const update of watchTrade(trade.reader, 'trade-1', { intervalMs: 5 })) {
    updates.push(update);
  }
  return updates;
}

/** For each entry handed over, the filled size of the trade handed over last before it. */
function filledSeenAt(updates: TradeWatchUpdate[]): Array<{ entry: string; trade: string }> {
  let trade = 'none';
  const seen: Array<{ entry: string; trade: string }> = [];
  for (const update of updates) {
    if (update.type === 'trade') {
      trade = update.trade.filled_size;
    } else if (update.type === 'event') {
      seen.push({ entry: update.event.event_type, trade });
    }
  }
  return seen;
}

describe('watchTrade: the trade it hands over counts the entries that follow it', () => {
  it('hands over the filled size of a fill committed between its reads before the fill', async () => {
    const trade = new RecordedTrade();
    // The fill and its hedge commit in the middle of the second pass (after one read, before the
    // other), the cancel well after.
    trade.afterRead = (read, count) => {
      if (read === 'trade' && count === 2) {
        trade.commit({ filled: 0.002, entry: 'maker_fill' });
        trade.commit({ entry: 'hedge_filled' });
      }
      if (read === 'trade' && count === 5) {
        trade.commit({ status: 'canceled', entry: 'trade_canceled' });
      }
    };
    const updates = await follow(trade);

    expect(filledSeenAt(updates)).toEqual([
      { entry: 'maker_fill', trade: '0.002' },
      { entry: 'hedge_filled', trade: '0.002' },
      { entry: 'trade_canceled', trade: '0.002' },
    ]);
    expect(updates.at(-1)).toMatchObject({ type: 'end', trade: { status: 'canceled' } });
  });

  it('hands over what the ending wrote to the log before `end`, whenever the ending committed', async () => {
    for (const [read, count] of [
      ['events', 1],
      ['trade', 1],
      ['events', 2],
      ['trade', 2],
    ] as const) {
      const trade = new RecordedTrade();
      trade.afterRead = (done, times) => {
        if (done === read && times === count) {
          trade.commit({ filled: 0.004, status: 'completed', entry: 'trade_completed' });
        }
      };
      const updates = await follow(trade);
      const types = updates.map((update) =>
        update.type === 'event' ? update.event.event_type : update.type,
      );
      expect({ after: `${read} read ${count}`, types: types.slice(-2) }).toEqual({
        after: `${read} read ${count}`,
        types: ['trade_completed', 'end'],
      });
      expect(filledSeenAt(updates)).toEqual([{ entry: 'trade_completed', trade: '0.004' }]);
    }
  });
});
