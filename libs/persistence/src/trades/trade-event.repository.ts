import type { EntityManager } from 'typeorm';
import {
  decodeLogEntry,
  isExecutionEventType,
  logFieldSql,
  type ExecutionEventType,
  type LogDataOf,
  type LogEntry,
} from '@sts/contracts';
import { countedFills } from '@sts/domain';
import { postgresPool } from '../database/postgres-pool';
import { queryRows } from '../query-rows';

/** An entry as `trade_events` holds it, before decoding. */
interface StoredEntryRow {
  tradeId: string;
  sequence: number;
  eventType: string;
  data: unknown;
  workerId: string;
  createdAt: Date;
}

/** The columns of a StoredEntryRow, as every statement here selects them. */
const ENTRY_COLUMNS = `trade_id AS "tradeId", sequence, event_type AS "eventType", data,
  worker_id AS "workerId", created_at AS "createdAt"`;

/** The entries execution quality is read from: the start, fills, their markouts, their hedges and the quoting. */
export const QUALITY_EVENT_TYPES = [
  'chunk_started',
  'maker_fill',
  'markout',
  'hedge_sent',
  'hedge_outcome',
  'quoting',
] as const;

/** The entries results are read from: every fill of either leg and every unwind of a residual. */
export const RESULT_EVENT_TYPES = ['maker_fill', 'hedge_filled', 'unwind_outcome'] as const;

/** A trade's fills by the venues' clocks, as SQL reads them (epoch ms; an unwind by when it was logged). */
const RESULT_TIME_SQL = `(CASE r.event_type
    WHEN 'maker_fill' THEN (${logFieldSql('maker_fill', 'timestamp_ms', 'r')})::bigint
    WHEN 'hedge_filled' THEN (${logFieldSql('hedge_filled', 'timestamp_ms', 'r')})::bigint
    ELSE (extract(epoch FROM r.created_at) * 1000)::bigint END)`;

/** The columns of a TradeFillLog's trade. */
const FILL_LOG_TRADE_COLUMNS = `t.market, t.maker_leg AS "makerLeg",
  t.maker_exchange AS "makerExchange", lower(t.maker_wallet) AS "makerWallet",
  t.hedge_exchange AS "hedgeExchange", lower(t.hedge_wallet) AS "hedgeWallet"`;

/** When a maker fill happened by its venue's clock (epoch ms), as SQL reads it from the log. */
const FILL_TIME_SQL = `(${logFieldSql('maker_fill', 'timestamp_ms', 'f')})::bigint`;

/** When a quoting spell ended (epoch ms), as SQL reads it from the log. */
const SPELL_END_SQL = `(${logFieldSql('quoting', 'until_ms', 'q')})::bigint`;

/** A user's trade with a maker fill or a quoting spell in a window: its market, start and quality entries. */
export interface TradeQualityLog {
  tradeId: string;
  market: string;
  createdAt: Date;
  entries: StoredLogEntry[];
}

/** A user's trade with its RESULT_EVENT_TYPES entries: where each leg trades, and its fills. */
export interface TradeFillLog {
  tradeId: string;
  market: string;
  makerLeg: 'long' | 'short';
  makerExchange: string;
  makerWallet: string;
  hedgeExchange: string;
  hedgeWallet: string;
  entries: StoredLogEntry[];
}

/** An entry of a trade's log, decoded, with its place in the log, its writer and its time. */
export interface StoredLogEntry {
  sequence: number;
  entry: LogEntry;
  workerId: string;
  createdAt: Date;
}

/**
 * An entry as the public log shows it (pages, the fills replay): decoded
 * when it decodes; as written when it does not (a type of a newer worker in
 * a rolling deploy, or an entry no decoder accepts), so a trader's read of
 * the record never fails on one entry. Readers that work with the data use
 * the decoded entries of `entriesOf` and `entriesOfTrade`, which throw.
 */
export interface PagedLogEntry {
  sequence: number;
  eventType: string;
  data: object;
  workerId: string;
  createdAt: Date;
}

/** A page of a trade's log; `hasMore`: entries with a higher sequence exist. */
export interface LogPage {
  entries: PagedLogEntry[];
  hasMore: boolean;
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
      text: `SELECT ${ENTRY_COLUMNS} FROM trade_events
        WHERE trade_id = ANY($1) AND event_type = ANY($2) ORDER BY trade_id, sequence`,
      values: [tradeIds, types],
    });
    for (const row of result.rows) {
      const list = byTrade.get(row.tradeId) ?? [];
      list.push(stored(row));
      byTrade.set(row.tradeId, list);
    }
    return byTrade;
  }

  /** One trade's entries of the given types from `fromSequence` on, in log order. */
  async entriesOfTrade(
    tradeId: string,
    types: readonly ExecutionEventType[],
    fromSequence = 1,
  ): Promise<StoredLogEntry[]> {
    return (await this.rowsFrom(tradeId, types, fromSequence)).map(stored);
  }

  /**
   * A trade's maker fills, each venue fill once (the first entry of it, by
   * the fold's rule, `countedFills` of @sts/domain): a recovery that logs a
   * fill the log already holds never makes it count twice.
   */
  async makerFillsOf(tradeId: string): Promise<Array<LogDataOf['maker_fill']>> {
    const stored = await this.entriesOfTrade(tradeId, ['maker_fill']);
    return countedFills(stored.map(({ entry }) => entry)).flatMap((entry) =>
      entry.eventType === 'maker_fill' ? [entry.data] : [],
    );
  }

  /**
   * The user's trades with a maker fill in [fromMs, toMs) by the venue's
   * clock (`timestamp_ms`) or a quoting spell that ended in it (a trade that
   * quoted and never filled counts against its venue's fill rate), each with
   * its QUALITY_EVENT_TYPES entries in log order (all of them: which fall in
   * the window, counted once each, is the reader's to decide, as for one
   * trade). Only the user's own trades are read.
   */
  async qualityLogsOf(userId: string, fromMs: number, toMs: number): Promise<TradeQualityLog[]> {
    const rows = await queryRows<StoredEntryRow & { market: string; tradeCreatedAt: Date }>(
      this.db,
      `SELECT e.trade_id AS "tradeId", e.sequence, e.event_type AS "eventType", e.data,
         e.worker_id AS "workerId", e.created_at AS "createdAt", t.market,
         t.created_at AS "tradeCreatedAt"
       FROM trades t JOIN trade_events e ON e.trade_id = t.id
       WHERE t.user_id = $1 AND e.event_type = ANY($4)
         AND (EXISTS (SELECT 1 FROM trade_events f
             WHERE f.trade_id = t.id AND f.event_type = 'maker_fill'
               AND ${FILL_TIME_SQL} >= $2 AND ${FILL_TIME_SQL} < $3)
           OR EXISTS (SELECT 1 FROM trade_events q
             WHERE q.trade_id = t.id AND q.event_type = 'quoting'
               AND ${SPELL_END_SQL} >= $2 AND ${SPELL_END_SQL} < $3))
       ORDER BY e.trade_id, e.sequence`,
      [userId, fromMs, toMs, QUALITY_EVENT_TYPES],
    );
    const logs = new Map<string, TradeQualityLog>();
    for (const row of rows) {
      const log = logs.get(row.tradeId) ?? {
        tradeId: row.tradeId,
        market: row.market,
        createdAt: row.tradeCreatedAt,
        entries: [],
      };
      log.entries.push(stored(row));
      logs.set(row.tradeId, log);
    }
    return [...logs.values()];
  }

  /**
   * The user's trades with a fill of either leg or an unwind in [fromMs,
   * toMs) (by the venue's clock; an unwind by when it was logged), each with
   * all its RESULT_EVENT_TYPES entries in log order: a spread realised in the
   * window may pair with a fill before it. Only the user's own trades.
   */
  async fillLogsIn(userId: string, fromMs: number, toMs: number): Promise<TradeFillLog[]> {
    return this.fillLogs(
      `EXISTS (SELECT 1 FROM trade_events r WHERE r.trade_id = t.id
         AND r.event_type = ANY($2) AND ${RESULT_TIME_SQL} >= $3 AND ${RESULT_TIME_SQL} < $4)`,
      [userId, RESULT_EVENT_TYPES, fromMs, toMs],
    );
  }

  /**
   * The user's trades with a leg on one venue account (either leg's exchange
   * and wallet), each with all its RESULT_EVENT_TYPES entries: what a
   * funding payment of that account is shared by.
   */
  async fillLogsOnAccount(
    userId: string,
    exchange: string,
    wallet: string,
  ): Promise<TradeFillLog[]> {
    return this.fillLogs(
      `((t.maker_exchange = $2 AND lower(t.maker_wallet) = $3)
         OR (t.hedge_exchange = $2 AND lower(t.hedge_wallet) = $3))`,
      [userId, exchange, wallet.toLowerCase()],
    );
  }

  private async fillLogs(tradeFilter: string, params: unknown[]): Promise<TradeFillLog[]> {
    const rows = await queryRows<StoredEntryRow & Omit<TradeFillLog, 'entries' | 'tradeId'>>(
      this.db,
      `SELECT e.trade_id AS "tradeId", e.sequence, e.event_type AS "eventType", e.data,
         e.worker_id AS "workerId", e.created_at AS "createdAt", ${FILL_LOG_TRADE_COLUMNS}
       FROM trades t JOIN trade_events e ON e.trade_id = t.id
       WHERE t.user_id = $1 AND e.event_type = ANY('{maker_fill,hedge_filled,unwind_outcome}')
         AND ${tradeFilter}
       ORDER BY e.trade_id, e.sequence`,
      params,
    );
    const logs = new Map<string, TradeFillLog>();
    for (const row of rows) {
      const log = logs.get(row.tradeId) ?? {
        tradeId: row.tradeId,
        market: row.market,
        makerLeg: row.makerLeg,
        makerExchange: row.makerExchange,
        makerWallet: row.makerWallet,
        hedgeExchange: row.hedgeExchange,
        hedgeWallet: row.hedgeWallet,
        entries: [],
      };
      log.entries.push(stored(row));
      logs.set(row.tradeId, log);
    }
    return [...logs.values()];
  }

  /**
   * The worker that wrote the trade's newest entry, or null for an empty
   * log. Read by the worker that resumes a trade handed over to it: a
   * released lease keeps no owner, but every worker that runs a trade logs
   * as it starts it (chunk_started, recovery_completed), so the newest entry
   * is the handing worker's.
   */
  async lastWriterOf(tradeId: string): Promise<string | null> {
    const rows = await queryRows<{ workerId: string }>(
      this.db,
      `SELECT worker_id AS "workerId" FROM trade_events
       WHERE trade_id = $1 ORDER BY sequence DESC LIMIT 1`,
      [tradeId],
    );
    return rows[0]?.workerId ?? null;
  }

  /** Entries after `afterSequence`, at most `limit` of them, in log order (GET .../events). */
  async page(tradeId: string, afterSequence: number, limit: number): Promise<LogPage> {
    const rows = await queryRows<StoredEntryRow>(
      this.db,
      `SELECT ${ENTRY_COLUMNS} FROM trade_events
       WHERE trade_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3`,
      [tradeId, afterSequence, limit + 1],
    );
    return { entries: rows.slice(0, limit).map(shown), hasMore: rows.length > limit };
  }

  /** Entries of the given types from `fromSequence` on, as the public log shows them. */
  async shownFrom(
    tradeId: string,
    types: readonly ExecutionEventType[],
    fromSequence: number,
  ): Promise<PagedLogEntry[]> {
    return (await this.rowsFrom(tradeId, types, fromSequence)).map(shown);
  }

  /** A trade's rows of the given types from `fromSequence` on, in log order, undecoded. */
  private rowsFrom(
    tradeId: string,
    types: readonly ExecutionEventType[],
    fromSequence: number,
  ): Promise<StoredEntryRow[]> {
    return queryRows<StoredEntryRow>(
      this.db,
      `SELECT ${ENTRY_COLUMNS} FROM trade_events
       WHERE trade_id = $1 AND sequence >= $2 AND event_type = ANY($3) ORDER BY sequence`,
      [tradeId, fromSequence, types],
    );
  }
}

function shown(row: StoredEntryRow): PagedLogEntry {
  let data = row.data as object;
  if (isExecutionEventType(row.eventType)) {
    try {
      data = decodeLogEntry(row.eventType, row.data).data;
    } catch {
      // Shown as written: the record is what the trader reads.
    }
  }
  return {
    sequence: Number(row.sequence),
    eventType: row.eventType,
    data,
    workerId: row.workerId,
    createdAt: row.createdAt,
  };
}

const stored = (row: StoredEntryRow): StoredLogEntry => ({
  sequence: Number(row.sequence),
  entry: decodeLogEntry(row.eventType, row.data),
  workerId: row.workerId,
  createdAt: row.createdAt,
});
