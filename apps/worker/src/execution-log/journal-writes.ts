import type { DataSource, EntityManager } from 'typeorm';
import {
  isFillEventType,
  tradeFillDraft,
  tradeFillMessageId,
  tradeFillSubject,
  tradeLifecycleMessage,
} from '@sts/contracts';
import { transitionTrade, type FastMoveGuardStats, type TradeStatus } from '@sts/domain';
import { addToOutbox, TradeRepository } from '@sts/persistence';
import type { LogEntry } from '@sts/contracts';
import { LeaseLostError, type JournalFence } from './journal-fence';

/** A status change the journal writes: from, to, and what goes with it in one transaction. */
export interface StatusChange {
  from: TradeStatus;
  to: TradeStatus;
  /** Written in the same transaction, before the status changes. */
  entries?: LogEntry[];
  failureReason?: string;
  fastMoveGuardStats?: FastMoveGuardStats;
  filledSize?: string;
  /** At a trade's end: maker fills it could not hedge, and what the unwind took back (base units). */
  residualUnhedged?: string;
  residualUnwound?: string;
  /** The lifecycle event's `data`. */
  eventData?: Record<string, unknown>;
}

/**
 * Appends `entries` with sequence numbers from trades.last_sequence, in one
 * statement fenced on the lease; `appendId` makes a retried append a no-op.
 *
 * The same statement puts each fill entry (maker_fill, hedge_filled,
 * hedge_outcome) in the outbox as its `trade.fill` message, drafted here
 * (tradeFillDraft) and completed with the entry's own sequence and
 * created_at: it is pushed if and only if the entry committed, and nothing
 * is added to the trade's path (no extra round trip, no NATS).
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
  const row = await new TradeRepository(manager).appendJournal({
    tradeId,
    workerId,
    epoch,
    eventTypes: entries.map((entry) => entry.eventType),
    data: entries.map((entry) => JSON.stringify(entry.data)),
    filledSize: filledSize ?? null,
    appendId,
    fillSubject: tradeFillSubject(fence.natsPrefix, tradeId),
    fillMessageIdPrefix: tradeFillMessageId(tradeId, ''),
    fillDrafts: entries.map((entry) => fillDraftOf(fence, entry)),
  });
  if (row?.last_sequence === null || row?.last_sequence === undefined) {
    if (appendId !== null && (await alreadyAppended(manager, fence, appendId))) {
      return 0;
    }
    throw new LeaseLostError(tradeId);
  }
  return Number(row.pushed);
}

/** The entry's `trade.fill` message as JSON when it is a fill entry (pushed live), else null. */
function fillDraftOf(fence: JournalFence, entry: LogEntry): string | null {
  if (!isFillEventType(entry.eventType)) {
    return null;
  }
  const fill = {
    trade_id: fence.tradeId,
    user_id: fence.userId,
    event_type: entry.eventType,
    data: entry.data as unknown as Record<string, unknown>,
  };
  return JSON.stringify(tradeFillDraft(fill, fence.correlationId));
}

/** Did an earlier attempt of this append commit (while we still hold the lease)? */
async function alreadyAppended(
  manager: EntityManager,
  fence: JournalFence,
  appendId: string,
): Promise<boolean> {
  return new TradeRepository(manager).appendApplied(fence, appendId);
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
  const current = await new TradeRepository(manager).lockLease(fence.tradeId);
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
  return new TradeRepository(manager).transitionFenced(fence, {
    transition,
    failureReason: change.failureReason ?? null,
    fastMoveGuardStats: change.fastMoveGuardStats
      ? JSON.stringify(change.fastMoveGuardStats)
      : null,
    filledSize: change.filledSize ?? null,
    residualUnhedged: change.residualUnhedged ?? null,
    residualUnwound: change.residualUnwound ?? null,
  });
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
