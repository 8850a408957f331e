import type { DataSource } from 'typeorm';
import { EXECUTION_EVENT_TYPES, type LogEntry } from '@sts/contracts';
import { TradeEventRepository } from '@sts/persistence';

/** A trade's whole execution log, decoded, in order: what every start replays (TradeState.replay). */
export async function readTradeLog(db: DataSource, tradeId: string): Promise<LogEntry[]> {
  const stored = await new TradeEventRepository(db.manager).entriesOfTrade(
    tradeId,
    EXECUTION_EVENT_TYPES,
  );
  return stored.map(({ entry }) => entry);
}
