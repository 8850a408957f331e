import type { Pool, QueryConfig } from 'pg';
import { In, type EntityManager } from 'typeorm';
import {
  AMENDABLE_TRADE_STATUSES,
  type TradeStatus,
  tradeStatusList,
  type transitionTrade,
} from '@sts/domain';
import { postgresPool } from '../database/postgres-pool';
import { TradeEntity } from '../entities/trade.entity';
import { queryRows } from '../query-rows';
import {
  TRADE_BUDGETS_JOIN_SQL,
  TRADE_HEDGE_RATE_BUDGET_SQL,
  TRADE_RATE_BUDGET_SQL,
} from '../sql/trade-budgets-sql';
import {
  EXECUTING_STATUS_SQL,
  LIVE_STATUS_SQL,
  LIVE_TRADE_STATUSES,
} from '../sql/trade-status-sql';
import { TradeJsonRow, type TradeFields } from './trade-json-row';
import { TradePositionStatements } from './trade-position.statements';

export type { TradeFields } from './trade-json-row';
export type { ImpliedPositionRow, ResidualLeftRow } from './trade-position.statements';

type TradeTransition = ReturnType<typeof transitionTrade>;

/** The statuses an amendment may change (domain; decisions 4), as the SQL guard takes them. */
const AMENDABLE_STATUSES: readonly TradeStatus[] = tradeStatusList(AMENDABLE_TRADE_STATUSES);

/** The new terms of PATCH; null keeps a term. `restatedFilled`: filled_size in a new unit. */
export interface TermsAmendment {
  tradeId: string;
  userId: string;
  targetSize: string | null;
  targetSpread: string | null;
  spreadType: string | null;
  maxSlippage: string | null;
  sizeType: string | null;
  amendment: Record<string, unknown>;
  restatedFilled: string | null;
}

/** A page of a user's trades, newest first. */
export interface TradePageQuery {
  limit: number;
  statuses?: string[];
  /** A trade of the user's: only trades created before it. */
  before?: string;
}

/** A trade's identity and status as its replay (same idempotency key) answers it. */
export interface ReplayedTradeRow {
  id: string;
  status: string;
  rate_budget: number;
  hedge_rate_budget: number | null;
}

/** A trade row's accounts, as the budget service reads them. */
export interface TradeAccountsRow {
  id: string;
  status: string;
  maker_exchange: string;
  maker_wallet: string;
  hedge_exchange: string;
  hedge_wallet: string;
}

const ACCOUNT_COLUMNS = 'id, status, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet';
const PRESENTED_FROM = `trades t ${TRADE_BUDGETS_JOIN_SQL}`;
const BUDGET_COLUMNS: Partial<Record<keyof TradeEntity, string>> = {
  rateBudget: TRADE_RATE_BUDGET_SQL,
  hedgeRateBudget: TRADE_HEDGE_RATE_BUDGET_SQL,
};
const jsonRowsOf = new WeakMap<TradeFields, TradeJsonRow<unknown>>();

/**
 * The one owner of the statements on `trades` (the worker's lease and journal
 * statements are in TradeLeaseStatements, the positions' reads in
 * TradePositionStatements, which this extends). Writes are
 * compare-and-sets on the row (its status, its lease): a caller learns from
 * the answer whether it won. Built over a manager: the data source's, or a
 * transaction's to run inside it. Hot reads go to node-postgres' pool as
 * named (prepared) statements, skipping TypeORM's query runner.
 */
export class TradeRepository extends TradePositionStatements {
  constructor(db: EntityManager) {
    super(db);
  }

  private get pool(): Pool {
    return postgresPool(this.db.connection);
  }

  findById(tradeId: string): Promise<TradeEntity> {
    return this.db.getRepository(TradeEntity).findOneByOrFail({ id: tradeId });
  }

  findOwn(tradeId: string, userId: string): Promise<TradeEntity | null> {
    return this.db.getRepository(TradeEntity).findOneBy({ id: tradeId, userId });
  }

  /** The row, locked until the transaction ends (the manager's must be one). */
  lockById(tradeId: string): Promise<TradeEntity | null> {
    return this.db
      .getRepository(TradeEntity)
      .findOne({ where: { id: tradeId }, lock: { mode: 'pessimistic_write' } });
  }

  /** The row's size unit, the row locked until the transaction ends. */
  async lockSizeType(tradeId: string): Promise<string | null> {
    const [row] = await queryRows<{ size_type: string }>(
      this.db,
      `SELECT size_type FROM trades WHERE id = $1 FOR UPDATE`,
      [tradeId],
    );
    return row?.size_type ?? null;
  }

  /** The status of a trade when it exists and is the user's, else null. */
  async statusOfOwn(tradeId: string, userId: string): Promise<string | null> {
    const [row] = await queryRows<{ status: string }>(
      this.db,
      `SELECT status FROM trades WHERE id = $1 AND user_id = $2`,
      [tradeId, userId],
    );
    return row?.status ?? null;
  }

  /**
   * The amended terms in one statement, guarded by the status and by
   * filled_size (`restatedFilled` when the unit changes, else the row's).
   * The new amendment_version, or null when the guard refused.
   */
  async amendTerms(change: TermsAmendment): Promise<number | null> {
    const rows = await queryRows<{ amendment_version: number }>(
      this.db,
      `UPDATE trades SET
         target_size = COALESCE($3::numeric, target_size),
         target_spread = COALESCE($4::numeric, target_spread),
         spread_type = COALESCE($5, spread_type),
         max_slippage = COALESCE($6::numeric, max_slippage),
         size_type = COALESCE($7, size_type),
         filled_size = COALESCE($10::numeric, filled_size),
         amendment = $8::jsonb,
         amendment_version = amendment_version + 1,
         updated_at = now()
       WHERE id = $1 AND user_id = $2
         AND status = ANY($9::text[])
         AND ($3::numeric IS NULL OR $3::numeric >= COALESCE($10::numeric, filled_size))
       RETURNING amendment_version`,
      [
        change.tradeId,
        change.userId,
        change.targetSize,
        change.targetSpread,
        change.spreadType,
        change.maxSlippage,
        change.sizeType,
        JSON.stringify(change.amendment),
        AMENDABLE_STATUSES,
        change.restatedFilled,
      ],
    );
    return rows.length > 0 ? rows[0].amendment_version : null;
  }

  /** Marks an executing trade's cancel as requested (the owner ends it); false when it is not executing. */
  async requestCancel(tradeId: string, userId: string): Promise<boolean> {
    const requested = await queryRows<{ id: string }>(
      this.db,
      `UPDATE trades SET cancel_requested_at = COALESCE(cancel_requested_at, now()), updated_at = now()
       WHERE id = $1 AND user_id = $2 AND status IN ${EXECUTING_STATUS_SQL}
       RETURNING id`,
      [tradeId, userId],
    );
    return requested.length > 0;
  }

  /**
   * A trade no worker runs, canceled as a compare-and-set on `transition.from`:
   * the row's guard terms and new updated_at, or null when its status moved.
   */
  async cancelUnowned<Row extends object>(
    tradeId: string,
    userId: string,
    transition: TradeTransition,
  ): Promise<(Row & { updated_at: Date }) | null> {
    const [updated] = await queryRows<Row & { updated_at: Date }>(
      this.db,
      `UPDATE trades SET status = $3, cancel_requested_at = now(), updated_at = now(),
         completed_at = CASE WHEN $5::boolean THEN now() ELSE completed_at END
       WHERE id = $1 AND user_id = $2 AND status = $4
       RETURNING updated_at, maker_leg, quote_mode, fast_move_guard`,
      [tradeId, userId, transition.to, transition.from, transition.setsCompletedAt],
    );
    return updated ?? null;
  }

  async recordGuardStats(tradeId: string, stats: object): Promise<void> {
    await this.db.query(`UPDATE trades SET fast_move_guard_stats = $2 WHERE id = $1`, [
      tradeId,
      JSON.stringify(stats),
    ]);
  }

  /** The user's live trades with a leg on the wallet at the exchange. */
  countLiveOnAccount(userId: string, exchange: string, wallet: string): Promise<number> {
    const live = In(LIVE_TRADE_STATUSES);
    return this.db.getRepository(TradeEntity).count({
      where: [
        { userId, longExchange: exchange, longWallet: wallet, status: live },
        { userId, shortExchange: exchange, shortWallet: wallet, status: live },
      ],
    });
  }

  /** The user's live trades with a leg on the wallet, at any exchange. */
  countLiveOnWallet(userId: string, wallet: string): Promise<number> {
    const live = In(LIVE_TRADE_STATUSES);
    return this.db.getRepository(TradeEntity).count({
      where: [
        { userId, longWallet: wallet, status: live },
        { userId, shortWallet: wallet, status: live },
      ],
    });
  }

  /** The trade an idempotency key made, with its budgets as they are now. */
  async findReplay(userId: string, idempotencyKey: string): Promise<ReplayedTradeRow | null> {
    const { rows } = await this.pool.query<ReplayedTradeRow>({
      name: 'trades.replay',
      text: `SELECT t.id, t.status, ${TRADE_RATE_BUDGET_SQL} AS rate_budget,
        ${TRADE_HEDGE_RATE_BUDGET_SQL} AS hedge_rate_budget
      FROM trades t ${TRADE_BUDGETS_JOIN_SQL}
      WHERE t.user_id = $1 AND t.idempotency_key = $2`,
      values: [userId, idempotencyKey],
    });
    return rows[0] ?? null;
  }

  /**
   * The user's newest trades. `limit` is written into the prepared text, so it
   * must be the same constant on every call (the gateway's TRADE_LIST_LIMIT).
   */
  async recentOf<T>(userId: string, fields: TradeFields, limit: number): Promise<T[]> {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new RangeError(`not a list limit: ${limit}`);
    }
    return this.jsonRows<T>(fields, (select) => ({
      name: 'trades.recent',
      text: `SELECT ${select} FROM ${PRESENTED_FROM}
       WHERE t.user_id = $1 ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}`,
      values: [userId],
    }));
  }

  /** A page of the user's trades; `before` must be checked to be the user's first. */
  async pageOf<T>(userId: string, fields: TradeFields, page: TradePageQuery): Promise<T[]> {
    const values: unknown[] = [userId, page.limit];
    const where = ['t.user_id = $1'];
    if (page.statuses) {
      values.push(page.statuses);
      where.push(`t.status = ANY($${values.length})`);
    }
    if (page.before) {
      values.push(page.before);
      // Compared in Postgres: created_at keeps microseconds a JavaScript Date would drop.
      where.push(
        `(t.created_at, t.id) < (SELECT b.created_at, b.id FROM trades b WHERE b.id = $${values.length})`,
      );
    }
    return this.jsonRows<T>(fields, (select) => ({
      text: `SELECT ${select} FROM ${PRESENTED_FROM} WHERE ${where.join(' AND ')}
       ORDER BY t.created_at DESC, t.id DESC LIMIT $2`,
      values,
    }));
  }

  /** The user's live trades (pending to recovering), oldest first. */
  async liveIdsOf(userId: string): Promise<string[]> {
    const result = await this.pool.query<{ id: string }>({
      name: 'trades.live-ids',
      text: `SELECT id FROM trades WHERE user_id = $1 AND status IN ${LIVE_STATUS_SQL}
       ORDER BY created_at, id`,
      values: [userId],
    });
    return result.rows.map((row) => row.id);
  }

  /** The user's trade, or undefined (unknown and foreign alike): one prepared statement. */
  async oneOf<T>(userId: string, tradeId: string, fields: TradeFields): Promise<T | undefined> {
    const [trade] = await this.jsonRows<T>(fields, (select) => ({
      name: 'trades.one',
      text: `SELECT ${select} FROM ${PRESENTED_FROM} WHERE t.id = $1 AND t.user_id = $2`,
      values: [tradeId, userId],
    }));
    return trade;
  }

  /**
   * Runs a read of `fields` as one json column (its select list given to
   * `query`; TradeJsonRow, built once per list of fields) and decodes its rows.
   */
  private async jsonRows<T>(
    fields: TradeFields,
    query: (select: string) => QueryConfig,
  ): Promise<T[]> {
    let built = jsonRowsOf.get(fields);
    if (built === undefined) {
      built = new TradeJsonRow(this.db.connection.getMetadata(TradeEntity), fields, BUDGET_COLUMNS);
      jsonRowsOf.set(fields, built);
    }
    const rows = built as TradeJsonRow<T>;
    const result = await this.pool.query<{ row: Record<string, unknown> }>(query(rows.select));
    return result.rows.map((row) => rows.decode(row));
  }

  /** Every live trade's accounts (the budget rebuild). */
  liveAccounts(): Promise<TradeAccountsRow[]> {
    return this.db.query(`SELECT ${ACCOUNT_COLUMNS} FROM trades WHERE status = ANY($1)`, [
      LIVE_TRADE_STATUSES,
    ]);
  }

  /** In one read: every live trade's accounts, and those of `ids` whatever their status (the sweep). */
  liveOrAmongAccounts(ids: string[]): Promise<TradeAccountsRow[]> {
    return this.db.query(
      `SELECT ${ACCOUNT_COLUMNS} FROM trades WHERE status = ANY($1) OR id = ANY($2::uuid[])`,
      [LIVE_TRADE_STATUSES, ids],
    );
  }

  /** Live trades holding a hedge share their row has no hedge budget for get one. */
  async holdHedges(trades: Array<{ tradeId: string; share: number }>): Promise<void> {
    await this.pool.query(
      `UPDATE trades t SET hedge_rate_budget = held.share, updated_at = now()
         FROM unnest($1::uuid[], $2::int[]) AS held (id, share)
       WHERE t.id = held.id AND t.hedge_rate_budget IS NULL AND t.status = ANY($3)`,
      [
        trades.map((trade) => trade.tradeId),
        trades.map((trade) => trade.share),
        LIVE_TRADE_STATUSES,
      ],
    );
  }
}
