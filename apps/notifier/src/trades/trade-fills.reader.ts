import type { DataSource } from 'typeorm';
import { FILL_EVENT_TYPES, type TradeFill } from '@sts/contracts';

/** The replay of a fills subscription, as the live stream carries it (no owner: it was checked). */
export type LoggedFill = Omit<TradeFill, 'user_id'>;

/** Reads a trade's fill entries from its execution log, the replay of a fills subscription. */
export class TradeFillsReader {
  constructor(private readonly dataSource: DataSource) {}

  /** The fill entries with sequence >= `fromSequence`, in sequence order. */
  async fillsFrom(tradeId: string, fromSequence: number): Promise<LoggedFill[]> {
    const rows = await this.dataSource.query<
      Array<{
        sequence: number;
        event_type: LoggedFill['event_type'];
        data: Record<string, unknown>;
        created_at: Date;
      }>
    >(
      `SELECT sequence, event_type, data, created_at FROM trade_events
       WHERE trade_id = $1 AND sequence >= $2 AND event_type = ANY($3::text[])
       ORDER BY sequence`,
      [tradeId, fromSequence, FILL_EVENT_TYPES],
    );
    return rows.map((row) => ({
      trade_id: tradeId,
      sequence: row.sequence,
      event_type: row.event_type,
      created_at: row.created_at.toISOString(),
      data: row.data,
    }));
  }
}
