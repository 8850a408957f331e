import type Big from 'big.js';
import {
  logEntry,
  type BudgetReleaseReason,
  type ChunkCompletedData,
  type LogEntry,
} from '@sts/contracts';
import { formatDecimal, type TradeStatus } from '@sts/domain';
import { unwindResidual } from './residual-unwind';
import type { TradeView } from './trade-view';

/**
 * The terminal status of a trade that has gone quiet (its maker order down,
 * missed fills read back and hedged, every hedge finished: a hedge is never
 * abandoned), written with chunk_completed; then its budget is released. The
 * ending is the trade's as it stands now: a hedge that failed while the trade
 * went quiet has made it `failed`. What its hedges could not take (below the
 * hedge venue's lot or minimums) is first unwound on the maker venue where
 * that venue's minimum allows; the rest is named on the trade and in its
 * lifecycle event (residual_unhedged, residual_unwound), whatever its status.
 */
export async function writeEnding(trade: TradeView): Promise<void> {
  const { residual, unwound } = await unwindResidual(trade);
  // Read after the unwind: a hedge that failed meanwhile has made the ending `failed`.
  const ending = trade.phase.ending;
  if (ending === null) {
    throw new Error(`trade ${trade.tradeId} has no ending to write`);
  }
  const to: TradeStatus = ending.kind;
  const filledSize = formatDecimal(trade.filledSize);
  const hedger = trade.open?.hedger;
  const unhedged = hedger ? formatDecimal(hedger.outstanding) : '0';
  const failureReason =
    ending.kind === 'failed'
      ? `${ending.reason}; unhedged size ${unhedged} ${trade.record.market} on ${trade.record.hedgeExchange}`
      : undefined;
  const residualUnhedged = formatDecimal(residual);
  const residualUnwound = formatDecimal(unwound);
  await trade.changeStatus(to, {
    entries: [
      ...quotingSpell(trade),
      ...chunkCompleted(trade, to === 'completed' ? 'target_reached' : to, unwound),
    ],
    failureReason,
    filledSize,
    residualUnhedged,
    residualUnwound,
    eventData: {
      filled_size: filledSize,
      target_size: formatDecimal(trade.terms.targetSize),
      residual_unhedged: residualUnhedged,
      residual_unwound: residualUnwound,
      ...(failureReason ? { failure_reason: failureReason, unhedged_size: unhedged } : {}),
    },
  });
  trade.log.info(
    {
      status: to,
      filled_size: filledSize,
      failure_reason: failureReason,
      residual_unhedged: residualUnhedged,
      residual_unwound: residualUnwound,
    },
    'trade ended',
  );
  await trade.budget.release(releaseReason(to));
}

/** The last spell of the trade's quoting here (its maker order is down by now). */
function quotingSpell(trade: TradeView): LogEntry[] {
  const spell = trade.open?.makerOrders.spells.take();
  return spell ? [spell] : [];
}

/** chunk_completed for a trade that ends after it started; `unwound`: what its unwind took back. */
function chunkCompleted(
  trade: TradeView,
  reason: ChunkCompletedData['reason'],
  unwound: Big,
): LogEntry[] {
  const hedger = trade.open?.hedger;
  if (!trade.ledger.chunkStarted || !hedger) {
    return [];
  }
  return [
    logEntry('chunk_completed', {
      filled_size: formatDecimal(trade.filledSize),
      reason,
      residual_unhedged: formatDecimal(hedger.residual()),
      residual_unwound: formatDecimal(unwound),
    }),
  ];
}

function releaseReason(status: TradeStatus): BudgetReleaseReason {
  switch (status) {
    case 'completed':
    case 'canceled':
    case 'rejected':
    case 'failed':
      return status;
    case 'pending':
    case 'validating':
    case 'active':
    case 'paused':
    case 'recovering':
      return 'failed';
  }
}
