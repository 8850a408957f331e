import type { EntityManager } from 'typeorm';
import { decodeLogEntry, type ExecutionEventType, type LogEntry } from '@sts/contracts';
import { postgresPool } from '../database/postgres-pool';
import { queryRows } from '../query-rows';

/** An entry as `trade_events` holds it, before decoding. */
interface StoredEntryRow {
  tradeId: string;
  sequence: number;
  eventType: string;
  data: unknown;
}

/** An entry of a trade's log, decoded, with its place in the log. */
export interface StoredLogEntry {
  sequence: number;
  entry: LogEntry;
}

/**
 * The owner of `trade_events`, the trades' execution logs: every statement
 * that reads them, each entry decoded (`decodeLogEntry` of @sts/contracts)
 * before anything else sees it. Statements are moved here from the apps one
 * reader at a time (issue 57); the append stays fenced on the lease
 * (`trade-lease.statements.ts`) until the journal's write path moves too.
 */
export class TradeEventRepository {
  constructor(private readonly db: EntityManager) {}

  /**
   * The entries of the given types of each trade, in log order, by trade id
   * (a trade with none has no key). A prepared statement: a GET of trades
   * with costs runs it once for the page.
   */
  async entriesOf(
    tradeIds: readonly string[],
    types: readonly ExecutionEventType[],
  ): Promise<Map<string, StoredLogEntry[]>> {
    const byTrade = new Map<string, StoredLogEntry[]>();
    if (tradeIds.length === 0) {
      return byTrade;
    }
    const result = await postgresPool(this.db.connection).query<StoredEntryRow>({
      name: 'trade-events.entries-of',
      text: `SELECT trade_id AS "tradeId", sequence, event_type AS "eventType", data
        FROM trade_events WHERE trade_id = ANY($1) AND event_type = ANY($2)
        ORDER BY trade_id, sequence`,
      values: [tradeIds, types],
    });
    for (const row of result.rows) {
      const list = byTrade.get(row.tradeId) ?? [];
      list.push(stored(row));
      byTrade.set(row.tradeId, list);
    }
    return byTrade;
  }

  /** One trade's entries of the given types, in log order (on the manager's connection). */
  async entriesOfTrade(
    tradeId: string,
    types: readonly ExecutionEventType[],
  ): Promise<StoredLogEntry[]> {
    const rows = await queryRows<StoredEntryRow>(
      this.db,
      `SELECT trade_id AS "tradeId", sequence, event_type AS "eventType", data
       FROM trade_events WHERE trade_id = $1 AND event_type = ANY($2) ORDER BY sequence`,
      [tradeId, types],
    );
    return rows.map(stored);
  }
}

const stored = (row: StoredEntryRow): StoredLogEntry => ({
  sequence: Number(row.sequence),
  entry: decodeLogEntry(row.eventType, row.data),
});
