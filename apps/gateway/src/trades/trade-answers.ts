import type { FastifyReply } from 'fastify';
import type { AmendTradeOutcome } from './use-cases/amend-trade/amend-trade.use-case';
import type { CancelTradeOutcome } from './use-cases/cancel-trade/cancel-trade.use-case';
import type { CreateTradeOutcome } from './use-cases/create-trade/create-trade.use-case';

/** An HTTP answer: the status of interface.md for an outcome, and the body Nest sends. */
export interface Answer<T> {
  status: 200 | 202;
  body: T;
}

/**
 * Sets the status on a reply injected with `passthrough` and gives the body
 * back to Nest, which sends it as for any handler (interceptors, filters and
 * serialization apply).
 */
export function answer<T>(reply: FastifyReply, { status, body }: Answer<T>): T {
  reply.code(status);
  return body;
}

export interface CreateTradeBody {
  trade_id: string;
  status: string;
  rate_budget: number;
  hedge_rate_budget?: number;
  idempotent?: true;
}

/** 202 for a new trade, 200 for a replayed idempotency key. */
export function createTradeAnswer(outcome: CreateTradeOutcome): Answer<CreateTradeBody> {
  const { trade } = outcome;
  const body: CreateTradeBody = {
    trade_id: trade.tradeId,
    status: trade.status,
    rate_budget: trade.rateBudget,
    ...(trade.hedgeRateBudget !== null ? { hedge_rate_budget: trade.hedgeRateBudget } : {}),
  };
  switch (outcome.kind) {
    case 'created':
      return { status: 202, body };
    case 'replayed':
      return { status: 200, body: { ...body, idempotent: true } };
  }
}

export interface AmendTradeBody {
  status: 'amendment_sent' | 'amendment_persisted';
  trade_id: string;
  warning?: string;
}

export function amendTradeAnswer(outcome: AmendTradeOutcome): Answer<AmendTradeBody> {
  switch (outcome.kind) {
    case 'sent':
      return { status: 200, body: { status: 'amendment_sent', trade_id: outcome.tradeId } };
    case 'persisted':
      return {
        status: 202,
        body: {
          status: 'amendment_persisted',
          trade_id: outcome.tradeId,
          warning:
            'the trade could not be reached right now; the amendment is stored and applies as soon as possible',
        },
      };
  }
}

export interface CancelTradeBody {
  status: 'canceled' | 'cancel_sent';
  trade_id: string;
}

/** A finished trade is a no-op that still answers 202 `cancel_sent` (interface: DELETE). */
export function cancelTradeAnswer(outcome: CancelTradeOutcome): Answer<CancelTradeBody> {
  switch (outcome.kind) {
    case 'canceled':
      return { status: 200, body: { status: 'canceled', trade_id: outcome.tradeId } };
    case 'cancel_sent':
    case 'already_ended':
      return { status: 202, body: { status: 'cancel_sent', trade_id: outcome.tradeId } };
  }
}

/** One trade's answer in a cancel-all: DELETE's status and body for it. */
export interface CancelAllEntry extends CancelTradeBody {
  http_status: 200 | 202;
}

export interface CancelAllBody {
  trades: CancelAllEntry[];
}

/** 200 always: each live trade of the caller with what DELETE would have answered for it. */
export function cancelAllAnswer(outcomes: CancelTradeOutcome[]): Answer<CancelAllBody> {
  const trades = outcomes.map((outcome) => {
    const { status, body } = cancelTradeAnswer(outcome);
    return { ...body, http_status: status };
  });
  return { status: 200, body: { trades } };
}
