import type { DataSource, EntityManager } from 'typeorm';
import {
  FILL_EVENT_TYPES,
  TRADE_FILL,
  tradeFillMessageId,
  tradeFillSubject,
  tradeLifecycleMessage,
} from '@sts/contracts';
import { transitionTrade } from '@sts/domain';
import { addToOutbox, queryRows } from '@sts/persistence';
import type { LogEntry } from './log-entries';
import { LeaseLostError, type JournalFence, type StatusChange } from './journal-model';

/**
 * The append, fenced on the lease: sequence numbers from trades.last_sequence,
 * the entries, and a `trade.fill` outbox message per fill entry, built here
 * because only this statement knows the entries' sequence and created_at
 * (the envelope of libs/contracts trade-fill.ts: ids, subject and type come
 * in as parameters $9-$14).
 */
const APPEND_SQL = `WITH fenced AS (
       UPDATE trades SET last_sequence = last_sequence + $4,
         filled_size = COALESCE($5::numeric, filled_size), updated_at = now(),
         last_append_id = COALESCE($8::uuid, last_append_id)
       WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3
         AND ($8::uuid IS NULL OR last_append_id IS DISTINCT FROM $8::uuid)
       RETURNING last_sequence
     ), inserted AS (
       INSERT INTO trade_events (trade_id, sequence, event_type, data, worker_id)
       SELECT $1, fenced.last_sequence - $4 + e.ord, e.event_type, e.data, $2
       FROM fenced, unnest($6::text[], $7::jsonb[]) WITH ORDINALITY AS e(event_type, data, ord)
       RETURNING sequence, event_type, data, created_at
     ), pushed AS (
       INSERT INTO outbox (subject, message_id, payload)
       SELECT $9, $10::text || i.sequence, jsonb_build_object(
           'message_id', $10::text || i.sequence, 'type', $11::text, 'correlation_id', $12::text,
           'occurred_at', t.at, 'payload', jsonb_build_object(
             'trade_id', $1::uuid::text, 'user_id', $13::text, 'sequence', i.sequence,
             'event_type', i.event_type, 'created_at', t.at, 'data', i.data))
       FROM inserted i,
         LATERAL (SELECT to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) t
       WHERE i.event_type = ANY($14::text[])
       ON CONFLICT (message_id) DO NOTHING
       RETURNING 1
     )
     SELECT (SELECT last_sequence FROM fenced) AS last_sequence, (SELECT count(*) FROM inserted) AS n,
       (SELECT count(*) FROM pushed) AS pushed`;

/**
 * Appends `entries` with sequence numbers from trades.last_sequence, in one
 * statement fenced on the lease; `appendId` makes a retried append a no-op.
 *
 * The same statement puts each fill entry (maker_fill, hedge_filled,
 * hedge_outcome) in the outbox as a `trade.fill` message with the entry's own
 * sequence and created_at: it is pushed if and only if the entry committed,
 * and nothing is added to the trade's path (no extra round trip, no NATS).
 * Returns how many fill messages were added (the caller kicks the relay).
 */
export async function appendRows(
  manager: EntityManager,
  fence: JournalFence,
  entries: LogEntry[],
  filledSize: string | undefined,
  appendId: string | null = null,
): Promise<number> {
  const { tradeId, workerId, epoch } = fence;
  const rows = await queryRows<{ last_sequence: number | null; pushed: string }>(
    manager,
    APPEND_SQL,
    [
      tradeId,
      workerId,
      epoch,
      entries.length,
      filledSize ?? null,
      entries.map((entry) => entry.eventType),
      entries.map((entry) => JSON.stringify(entry.data)),
      appendId,
      tradeFillSubject(fence.natsPrefix, tradeId),
      tradeFillMessageId(tradeId, ''),
      TRADE_FILL,
      fence.correlationId,
      fence.userId,
      FILL_EVENT_TYPES,
    ],
  );
  if (rows[0]?.last_sequence === null || rows[0]?.last_sequence === undefined) {
    if (appendId !== null && (await alreadyAppended(manager, fence, appendId))) {
      return 0;
    }
    throw new LeaseLostError(tradeId);
  }
  return Number(rows[0].pushed);
}

/** Did an earlier attempt of this append commit (while we still hold the lease)? */
async function alreadyAppended(
  manager: EntityManager,
  fence: JournalFence,
  appendId: string,
): Promise<boolean> {
  const { tradeId, workerId, epoch } = fence;
  const rows = await queryRows<{ applied: boolean }>(
    manager,
    `SELECT last_append_id = $4::uuid AS applied FROM trades
     WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3`,
    [tradeId, workerId, epoch, appendId],
  );
  return rows[0]?.applied === true;
}

type Transition = ReturnType<typeof transitionTrade>;

/**
 * A status change in one transaction, fenced on the lease: its log entries,
 * the row, and the lifecycle event in the outbox. True when the outbox got a
 * message (the lifecycle event, or a fill among the entries).
 */
export async function writeStatus(
  db: DataSource,
  fence: JournalFence,
  change: StatusChange,
): Promise<boolean> {
  const transition = transitionTrade(change.from, change.to);
  return db.transaction(async (manager) => {
    const current = await lockFencedRow(manager, fence);
    // A retry after a commit whose answer was lost: it is already done.
    if (current === change.to) {
      return false;
    }
    const fillsPushed =
      change.entries && change.entries.length > 0
        ? await appendRows(manager, fence, change.entries, undefined)
        : 0;
    const updatedAt = await updateStatus(manager, fence, transition, change);
    if (updatedAt === null) {
      throw new Error(`trade ${fence.tradeId} is ${current}, not ${transition.from}`);
    }
    const eventAdded = await addLifecycleEvent(manager, fence, transition, change, updatedAt);
    return eventAdded || fillsPushed > 0;
  });
}

/** Locks the trade's row and returns its status; LeaseLostError when the lease is not ours. */
async function lockFencedRow(manager: EntityManager, fence: JournalFence): Promise<string> {
  const [current] = await queryRows<{
    status: string;
    lease_owner: string | null;
    lease_epoch: string;
  }>(manager, `SELECT status, lease_owner, lease_epoch FROM trades WHERE id = $1 FOR UPDATE`, [
    fence.tradeId,
  ]);
  if (
    !current ||
    current.lease_owner !== fence.workerId ||
    String(current.lease_epoch) !== fence.epoch
  ) {
    throw new LeaseLostError(fence.tradeId);
  }
  return current.status;
}

/** The row's new status (and what comes with it); null when it was not in `from`. */
async function updateStatus(
  manager: EntityManager,
  fence: JournalFence,
  transition: Transition,
  change: StatusChange,
): Promise<Date | null> {
  const [updated] = await queryRows<{ updated_at: Date }>(
    manager,
    `UPDATE trades SET status = $4, updated_at = now(),
       completed_at = CASE WHEN $6::boolean THEN now() ELSE completed_at END,
       failure_reason = COALESCE($7, failure_reason),
       fast_move_guard_stats = COALESCE($8::jsonb, fast_move_guard_stats),
       filled_size = COALESCE($9::numeric, filled_size)
     WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3 AND status = $5
     RETURNING updated_at`,
    [
      fence.tradeId,
      fence.workerId,
      fence.epoch,
      transition.to,
      transition.from,
      transition.setsCompletedAt,
      change.failureReason ?? null,
      change.fastMoveGuardStats ? JSON.stringify(change.fastMoveGuardStats) : null,
      change.filledSize ?? null,
    ],
  );
  return updated ? updated.updated_at : null;
}

/** The transition's lifecycle event (the one builder the gateway uses too), into the outbox; false when it has none. */
async function addLifecycleEvent(
  manager: EntityManager,
  fence: JournalFence,
  transition: Transition,
  change: StatusChange,
  updatedAt: Date,
): Promise<boolean> {
  const { tradeId, userId, natsPrefix, correlationId } = fence;
  const event = tradeLifecycleMessage(natsPrefix, transition, {
    tradeId,
    userId,
    at: updatedAt,
    correlationId,
    data: change.eventData,
  });
  if (!event) {
    return false; // a transition clients do not see
  }
  await addToOutbox(manager, event.subject, event.message);
  return true;
}
