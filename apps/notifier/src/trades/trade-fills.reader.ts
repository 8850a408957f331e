import type { DataSource } from 'typeorm';
import { FILL_EVENT_TYPES, type TradeFill } from '@sts/contracts';
import { TradeEventRepository } from '@sts/persistence';

/** The replay of a fills subscription, as the live stream carries it (no owner: it was checked). */
export type LoggedFill = Omit<TradeFill, 'user_id'>;

/** Reads a trade's fill entries from its execution log, the replay of a fills subscription. */
export class TradeFillsReader {
  constructor(private readonly dataSource: DataSource) {}

  /** The fill entries with sequence >= `fromSequence`, in sequence order. */
  async fillsFrom(tradeId: string, fromSequence: number): Promise<LoggedFill[]> {
    const entries = await new TradeEventRepository(this.dataSource.manager).shownFrom(
      tradeId,
      FILL_EVENT_TYPES,
      fromSequence,
    );
    return entries.map(({ sequence, eventType, data, createdAt }) => ({
      trade_id: tradeId,
      sequence,
      event_type: eventType as LoggedFill['event_type'],
      created_at: createdAt.toISOString(),
      data: data as Record<string, unknown>,
    }));
  }
}
