import { envelope, START_TRADE, startTradeMessageId, startTradeSubject } from '@sts/contracts';
import type { CommittedRow, NewTradeRow } from '@sts/persistence';
import type { CreateTradeRequest } from '../../dto/create-trade.request';
import type { AdmitRequest } from './create-trade.transaction';
import type { GrantedBudgets } from './rate-budgets';
import type { legsOf } from './trade-terms.validation';

/** What a new trade's row is made of, besides its budgets. */
export interface NewTrade {
  id: string;
  userId: string;
  idempotencyKey: string;
  request: CreateTradeRequest;
  legs: ReturnType<typeof legsOf>;
  capGroup: string;
}

/** The lock a create holds while it counts its maker wallet's live trades in the cap group. */
export const capLockOf = (trade: NewTrade): string =>
  `maker-cap:${trade.legs.maker.wallet}:${trade.capGroup}`;

/** What `create_trade_admit` checks for the trade: rules 1 and 6, and its replay. */
export function admitRequestOf(trade: NewTrade): AdmitRequest {
  const { legs } = trade;
  return {
    userId: trade.userId,
    idempotencyKey: trade.idempotencyKey,
    capLock: capLockOf(trade),
    legs: [legs.long, legs.short],
    maker: { wallet: legs.maker.wallet, capGroup: trade.capGroup },
  };
}

/** The row's columns (its status is the insert's); everything else takes the table's defaults. */
export function newTradeRow(trade: NewTrade, budget: GrantedBudgets): NewTradeRow {
  const { request, legs } = trade;
  return {
    id: trade.id,
    user_id: trade.userId,
    market: request.market,
    long_exchange: legs.long.exchange,
    long_wallet: legs.long.wallet,
    short_exchange: legs.short.exchange,
    short_wallet: legs.short.wallet,
    maker_leg: request.maker_leg,
    maker_exchange: legs.maker.exchange,
    maker_wallet: legs.maker.wallet,
    hedge_exchange: legs.hedge.exchange,
    hedge_wallet: legs.hedge.wallet,
    cap_group: trade.capGroup,
    target_spread: request.target_spread,
    spread_condition: request.spread_condition,
    spread_type: request.spread_type ?? 'absolute',
    target_size: request.target_size,
    size_type: request.size_type ?? 'base',
    execution_type: request.execution_type,
    max_slippage: request.max_slippage,
    rate_budget: budget.rateBudget,
    hedge_rate_budget: budget.hedgeRateBudget,
    budget_version: budget.version,
    hedge_budget_version: budget.hedgeVersion,
    quote_mode: request.quote_mode ?? 'default',
    worst_spread: request.worst_spread ?? null,
    fast_move_guard: request.fast_move_guard ?? null,
    fast_move_guard_bps: request.fast_move_guard_bps?.toString() ?? null,
    fast_move_window_ms: request.fast_move_window_ms ?? null,
    fast_move_settle_ms: request.fast_move_settle_ms ?? null,
    idempotency_key: trade.idempotencyKey,
  };
}

/** The worker's start command, committed in the outbox with the row. */
export function startCommandOf(
  natsPrefix: string,
  tradeId: string,
  userId: string,
  correlationId: string,
): CommittedRow {
  const messageId = startTradeMessageId(tradeId);
  return {
    subject: startTradeSubject(natsPrefix),
    message_id: messageId,
    payload: envelope(
      START_TRADE,
      { trade_id: tradeId, user_id: userId },
      { messageId, correlationId },
    ),
  };
}
