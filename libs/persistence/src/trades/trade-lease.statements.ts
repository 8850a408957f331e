import type { EntityManager } from 'typeorm';
import type { TradeStatus, transitionTrade } from '@sts/domain';
import { queryRows } from '../query-rows';
import { EXECUTING_STATUS_SQL, sqlStatus } from '../sql/trade-status-sql';

type TradeTransition = ReturnType<typeof transitionTrade>;

/** The lease a worker holds on a trade: `epoch` fences every write it makes. */
export interface TradeFence {
  tradeId: string;
  workerId: string;
  epoch: string;
}

/** What a takeover found: the trade's status and the lease it replaced. */
export interface TakenOverRow {
  lease_epoch: string;
  status: string;
  previous_owner: string | null;
  expired_ms_ago: number | null;
}

/** A lease still held after a renewal, with what the owner must notice. */
export interface RenewedLeaseRow {
  id: string;
  amendment_version: number;
  cancel_requested: boolean;
}

/** One append to the execution log, with each fill entry's outbox message as drafted. */
export interface JournalAppend extends TradeFence {
  eventTypes: string[];
  /** Each entry's data, as JSON. */
  data: string[];
  filledSize: string | null;
  appendId: string | null;
  fillSubject: string;
  /** tradeFillMessageId(trade, ''): the message id is this and the entry's sequence. */
  fillMessageIdPrefix: string;
  /** Per entry, its `trade.fill` message as JSON (tradeFillDraft of @sts/contracts), or null. */
  fillDrafts: Array<string | null>;
}

/** A status change of a fenced trade, and what it writes with it. */
export interface FencedTransition {
  transition: TradeTransition;
  failureReason: string | null;
  fastMoveGuardStats: string | null;
  filledSize: string | null;
  /** residual_unhedged and residual_unwound at the trade's end (null: unchanged). */
  residualUnhedged: string | null;
  residualUnwound: string | null;
}

/**
 * The append, fenced on the lease: sequence numbers from trades.last_sequence,
 * the entries, and a `trade.fill` outbox message per fill entry: the message
 * drafted by the writer (tradeFillDraft of @sts/contracts, $10) completed
 * with what only this statement knows, the entry's sequence and created_at.
 * One statement over trades, trade_events and outbox.
 */
const APPEND_SQL = `WITH fenced AS (
       UPDATE trades SET last_sequence = last_sequence + $4,
         filled_size = COALESCE($5::numeric, filled_size), updated_at = now(),
         last_append_id = COALESCE($8::uuid, last_append_id)
       WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3
         AND ($8::uuid IS NULL OR last_append_id IS DISTINCT FROM $8::uuid)
       RETURNING last_sequence
     ), entries AS (
       SELECT fenced.last_sequence - $4 + e.ord AS sequence, e.event_type, e.data, e.draft
       FROM fenced,
         unnest($6::text[], $7::jsonb[], $11::jsonb[]) WITH ORDINALITY AS e(event_type, data, draft, ord)
     ), inserted AS (
       INSERT INTO trade_events (trade_id, sequence, event_type, data, worker_id)
       SELECT $1, sequence, event_type, data, $2 FROM entries
       RETURNING sequence, created_at
     ), pushed AS (
       INSERT INTO outbox (subject, message_id, payload)
       SELECT $9, $10::text || i.sequence, e.draft || jsonb_build_object(
           'message_id', $10::text || i.sequence, 'occurred_at', t.at,
           'payload', (e.draft->'payload') || jsonb_build_object('sequence', i.sequence, 'created_at', t.at))
       FROM inserted i JOIN entries e USING (sequence),
         LATERAL (SELECT to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) t
       WHERE e.draft IS NOT NULL
       ON CONFLICT (message_id) DO NOTHING
       RETURNING 1
     )
     SELECT (SELECT last_sequence FROM fenced) AS last_sequence, (SELECT count(*) FROM inserted) AS n,
       (SELECT count(*) FROM pushed) AS pushed`;

/**
 * The statements of TradeRepository that move and check a worker's lease:
 * each a compare-and-set on the row, so two workers racing for one trade
 * cannot both win, and every acquisition bumps lease_epoch, which fences out
 * the previous holder's writes.
 */
export class TradeLeaseStatements {
  constructor(protected readonly db: EntityManager) {}

  /** `transition` (pending -> validating) with the lease, if the trade is still unclaimed in `from`. */
  async claim(
    tradeId: string,
    owner: string,
    ttlMs: number,
    transition: TradeTransition,
  ): Promise<string | null> {
    const rows = await queryRows<{ lease_epoch: string }>(
      this.db,
      `UPDATE trades SET status = $4, lease_owner = $2,
         lease_expires_at = now() + $3 * interval '1 millisecond',
         lease_epoch = lease_epoch + 1, updated_at = now()
       WHERE id = $1 AND status = $5 AND lease_owner IS NULL
       RETURNING lease_epoch`,
      [tradeId, owner, ttlMs, transition.to, transition.from],
    );
    return rows.length > 0 ? String(rows[0].lease_epoch) : null;
  }

  /** The lease of an executing trade whose lease is free or expired. */
  async takeOver(tradeId: string, owner: string, ttlMs: number): Promise<TakenOverRow | null> {
    const rows = await queryRows<TakenOverRow>(
      this.db,
      `UPDATE trades t SET lease_owner = $2,
         lease_expires_at = now() + $3 * interval '1 millisecond',
         lease_epoch = t.lease_epoch + 1, updated_at = now()
       FROM (SELECT id, lease_owner, lease_expires_at FROM trades WHERE id = $1 FOR UPDATE) previous
       WHERE t.id = previous.id AND t.status IN ${EXECUTING_STATUS_SQL}
         AND (t.lease_owner IS NULL OR t.lease_expires_at < now())
       RETURNING t.lease_epoch, t.status, previous.lease_owner AS previous_owner,
         (EXTRACT(EPOCH FROM now() - previous.lease_expires_at) * 1000)::float8 AS expired_ms_ago`,
      [tradeId, owner, ttlMs],
    );
    return rows[0] ?? null;
  }

  /** Extends every lease of `held` still the owner's; answers those still held. */
  renewLeases(
    owner: string,
    ttlMs: number,
    held: ReadonlyArray<{ tradeId: string; epoch: string }>,
  ): Promise<RenewedLeaseRow[]> {
    return queryRows<RenewedLeaseRow>(
      this.db,
      `UPDATE trades t SET lease_expires_at = now() + $2 * interval '1 millisecond'
       FROM unnest($3::uuid[], $4::bigint[]) AS held(id, epoch)
       WHERE t.id = held.id AND t.lease_epoch = held.epoch AND t.lease_owner = $1
       RETURNING t.id, t.amendment_version, t.cancel_requested_at IS NOT NULL AS cancel_requested`,
      [owner, ttlMs, held.map((l) => l.tradeId), held.map((l) => l.epoch)],
    );
  }

  async releaseLease(fence: TradeFence): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      `UPDATE trades SET lease_owner = NULL, lease_expires_at = NULL
       WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3 RETURNING id`,
      [fence.tradeId, fence.workerId, fence.epoch],
    );
    return rows.length > 0;
  }

  /** Executing trades nobody holds, and pending ones older than `pendingGraceMs`. */
  async findUnheld(limit: number, pendingGraceMs: number): Promise<string[]> {
    const pending: TradeStatus = 'pending';
    const rows = await queryRows<{ id: string }>(
      this.db,
      `SELECT id FROM trades
       WHERE (status IN ${EXECUTING_STATUS_SQL} AND (lease_owner IS NULL OR lease_expires_at < now()))
          OR (status = ${sqlStatus(pending)} AND lease_owner IS NULL
              AND created_at < now() - $2 * interval '1 millisecond')
       ORDER BY lease_expires_at NULLS FIRST, created_at
       LIMIT $1`,
      [limit, pendingGraceMs],
    );
    return rows.map((row) => row.id);
  }

  /**
   * The workers holding a live lease on another executing trade of this
   * trade's maker account (venue and wallet), the one holding most first:
   * where a start command is best run, beside its account's session.
   */
  async makerAccountOwners(tradeId: string): Promise<string[]> {
    const rows = await queryRows<{ lease_owner: string }>(
      this.db,
      `SELECT other.lease_owner FROM trades t
       JOIN trades other ON other.maker_wallet = t.maker_wallet
         AND other.maker_exchange = t.maker_exchange AND other.id <> t.id
       WHERE t.id = $1 AND other.status IN ${EXECUTING_STATUS_SQL}
         AND other.lease_owner IS NOT NULL AND other.lease_expires_at > now()
       GROUP BY other.lease_owner
       ORDER BY count(*) DESC, other.lease_owner`,
      [tradeId],
    );
    return rows.map((row) => row.lease_owner);
  }

  /** The execution-log append (APPEND_SQL); last_sequence null when the fence or appendId refused it. */
  async appendJournal(
    append: JournalAppend,
  ): Promise<{ last_sequence: number | null; pushed: string } | undefined> {
    const [row] = await queryRows<{ last_sequence: number | null; pushed: string }>(
      this.db,
      APPEND_SQL,
      [
        append.tradeId,
        append.workerId,
        append.epoch,
        append.eventTypes.length,
        append.filledSize,
        append.eventTypes,
        append.data,
        append.appendId,
        append.fillSubject,
        append.fillMessageIdPrefix,
        append.fillDrafts,
      ],
    );
    return row;
  }

  /** Whether the fenced trade's last append is `appendId`. */
  async appendApplied(fence: TradeFence, appendId: string): Promise<boolean> {
    const rows = await queryRows<{ applied: boolean }>(
      this.db,
      `SELECT last_append_id = $4::uuid AS applied FROM trades
     WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3`,
      [fence.tradeId, fence.workerId, fence.epoch, appendId],
    );
    return rows[0]?.applied === true;
  }

  /** The row locked until the transaction ends: its status and lease. */
  async lockLease(
    tradeId: string,
  ): Promise<{ status: string; lease_owner: string | null; lease_epoch: string } | undefined> {
    const [row] = await queryRows<{
      status: string;
      lease_owner: string | null;
      lease_epoch: string;
    }>(this.db, `SELECT status, lease_owner, lease_epoch FROM trades WHERE id = $1 FOR UPDATE`, [
      tradeId,
    ]);
    return row;
  }

  /** The fenced trade's status change, a compare-and-set on its `from`; its updated_at, or null. */
  async transitionFenced(fence: TradeFence, change: FencedTransition): Promise<Date | null> {
    const { transition } = change;
    const [updated] = await queryRows<{ updated_at: Date }>(
      this.db,
      `UPDATE trades SET status = $4, updated_at = now(),
       completed_at = CASE WHEN $6::boolean THEN now() ELSE completed_at END,
       failure_reason = COALESCE($7, failure_reason),
       fast_move_guard_stats = COALESCE($8::jsonb, fast_move_guard_stats),
       filled_size = COALESCE($9::numeric, filled_size),
       residual_unhedged = COALESCE($10::numeric, residual_unhedged),
       residual_unwound = COALESCE($11::numeric, residual_unwound)
     WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3 AND status = $5
     RETURNING updated_at`,
      [
        fence.tradeId,
        fence.workerId,
        fence.epoch,
        transition.to,
        transition.from,
        transition.setsCompletedAt,
        change.failureReason,
        change.fastMoveGuardStats,
        change.filledSize,
        change.residualUnhedged,
        change.residualUnwound,
      ],
    );
    return updated ? updated.updated_at : null;
  }
}
