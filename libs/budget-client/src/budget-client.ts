import {
  BUDGET_ACCOUNT,
  BUDGET_ACCOUNT_RESULT,
  BUDGET_CUMULATIVE,
  BUDGET_CUMULATIVE_RESULT,
  BUDGET_GET,
  BUDGET_GET_RESULT,
  BUDGET_RELEASE,
  BUDGET_RELEASE_RESULT,
  BUDGET_RESERVE,
  BUDGET_RESERVE_BATCH,
  BUDGET_RESERVE_BATCH_RESULT,
  BUDGET_RESERVE_RESULT,
  budgetAccountSubject,
  budgetCumulativeSubject,
  budgetGetSubject,
  budgetReleaseSubject,
  budgetReserveBatchSubject,
  budgetReserveSubject,
  decodeEnvelope,
  encodeEnvelope,
  envelope,
  parseBudgetAccountResult,
  parseBudgetCumulativeResult,
  parseBudgetGetResult,
  parseBudgetReleaseResult,
  parseBudgetReserveBatchResult,
  parseBudgetReserveResult,
  type BudgetAccount,
  type BudgetAccountState,
  type BudgetCumulativeRequest,
  type CumulativeAccountQuota,
  type BudgetReleaseReason,
  type Envelope,
} from '@sts/contracts';
import { AppError, type Logger, type NatsConnection } from '@sts/platform';
import { budgetFailureError, BudgetUnavailableError } from './budget-errors';
import { reserveAnswer, toTradeBudget } from './reserve-answers';
import { ShareFeeds } from './share-feeds';
import type { BudgetSharesChanged } from './budget-shares-changed';
import type { TradeBudget } from './trade-budget';
import type {
  ShareListener,
  TradeBudgetWatch,
  TradeBudgetWatchOptions,
} from './trade-budget-watch';

export interface BudgetClientOptions {
  /** NATS_PREFIX of the deployment. */
  natsPrefix: string;
  /** How long a call waits for the budget service before failing as budget_unavailable. */
  timeoutMs?: number;
  logger?: Logger;
}

/** Tracing ids carried on the request envelope (decisions: immutable envelopes). */
export interface CallContext {
  correlationId?: string;
  causationId?: string;
  /** Waits for the answer this long at most (never past the client's `timeoutMs`). */
  timeoutMs?: number;
}

export interface ReserveRequest {
  tradeId: string;
  maker: BudgetAccount;
  /** A trade's hedge account; absent for a hold of the maker account alone. */
  hedge?: BudgetAccount;
}

export const DEFAULT_BUDGET_TIMEOUT_MS = 2_000;

/**
 * The gateway's and workers' way to the budget service (subjects in
 * @sts/contracts budget/). Every failure is typed: a refusal throws
 * BudgetRefusedError (429 rate_budget_exhausted), an unreachable or slow
 * service BudgetUnavailableError (503 budget_unavailable).
 */
export class BudgetClient {
  private readonly timeoutMs: number;
  private readonly feeds: ShareFeeds;

  constructor(
    private readonly nc: NatsConnection,
    private readonly options: BudgetClientOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_BUDGET_TIMEOUT_MS;
    this.feeds = new ShareFeeds(nc, options, (id) => this.get(id));
  }

  /**
   * Reserves a new trade's shares before its row is inserted. Idempotent by
   * trade id. When the answer does not come, a best-effort release follows:
   * the reserve may have landed, and the gateway is about to answer 503.
   */
  async reserve(request: ReserveRequest, context: CallContext = {}): Promise<TradeBudget> {
    let result;
    try {
      result = await this.call(
        budgetReserveSubject(this.options.natsPrefix),
        BUDGET_RESERVE,
        { trade_id: request.tradeId, maker: request.maker, hedge: request.hedge },
        BUDGET_RESERVE_RESULT,
        parseBudgetReserveResult,
        context,
      );
    } catch (error) {
      if (error instanceof BudgetUnavailableError) {
        this.compensate(request.tradeId, context);
      }
      throw error;
    }
    const answer = reserveAnswer(result);
    if (answer instanceof AppError) {
      throw answer;
    }
    return answer;
  }

  /**
   * Several new trades' shares in one request (a group of creates), each
   * answered in order as `reserve` would answer it: its TradeBudget, or the
   * error `reserve` would throw (BudgetRefusedError, a failure of its own).
   * Throws BudgetUnavailableError when the batch gets no answer, after the
   * same best-effort release of every trade in it.
   */
  async reserveBatch(
    requests: ReserveRequest[],
    context: CallContext = {},
  ): Promise<Array<TradeBudget | AppError>> {
    let result;
    try {
      result = await this.call(
        budgetReserveBatchSubject(this.options.natsPrefix),
        BUDGET_RESERVE_BATCH,
        {
          reservations: requests.map((request) => ({
            trade_id: request.tradeId,
            maker: request.maker,
            hedge: request.hedge,
          })),
        },
        BUDGET_RESERVE_BATCH_RESULT,
        parseBudgetReserveBatchResult,
        context,
      );
    } catch (error) {
      if (error instanceof BudgetUnavailableError) {
        for (const request of requests) {
          this.compensate(request.tradeId, context);
        }
      }
      throw error;
    }
    if (result.outcome === 'failed') {
      throw budgetFailureError(result);
    }
    if (result.results.length !== requests.length) {
      throw new BudgetUnavailableError(
        `budget service answered ${result.results.length} of ${requests.length} reservations`,
      );
    }
    return result.results.map(reserveAnswer);
  }

  /**
   * Spends an account's limit outside a trade (the gateway's positions read):
   * `work` runs while a holder of its own holds a share of the account as a
   * trade would, so the account's trades are re-divided around it for that
   * long, and the hold is given back after, whatever `work` did. Throws
   * BudgetRefusedError, without running `work`, when the hold would take the
   * account's trades under the venue's minimum. A hold whose release is lost
   * is swept like a reservation whose trade never appeared.
   */
  async whileHolding<T>(
    account: BudgetAccount,
    work: () => Promise<T>,
    context: CallContext = {},
  ): Promise<T> {
    const holdId = globalThis.crypto.randomUUID();
    await this.reserve({ tradeId: holdId, maker: account }, context);
    try {
      return await work();
    } finally {
      await this.release(holdId, 'read_done', context).catch((error: unknown) =>
        this.options.logger?.warn(
          { err: error, hold_id: holdId },
          'budget hold not released; the sweep will',
        ),
      );
    }
  }

  /** Gives a trade's shares back. Resolves false when it held none. */
  async release(
    tradeId: string,
    reason: BudgetReleaseReason,
    context: CallContext = {},
  ): Promise<boolean> {
    const result = await this.call(
      budgetReleaseSubject(this.options.natsPrefix),
      BUDGET_RELEASE,
      { trade_id: tradeId, reason },
      BUDGET_RELEASE_RESULT,
      parseBudgetReleaseResult,
      context,
    );
    if (result.outcome === 'failed') {
      throw budgetFailureError(result);
    }
    return result.released;
  }

  /** A trade's current shares, or null when it holds none. */
  async get(tradeId: string, context: CallContext = {}): Promise<TradeBudget | null> {
    const result = await this.call(
      budgetGetSubject(this.options.natsPrefix),
      BUDGET_GET,
      { trade_id: tradeId },
      BUDGET_GET_RESULT,
      parseBudgetGetResult,
      context,
    );
    switch (result.outcome) {
      case 'found':
        return toTradeBudget(result.trade_id, result.maker, result.hedge);
      case 'not_found':
        return null;
      case 'failed':
        throw budgetFailureError(result);
    }
  }

  /** How one venue account's limit is divided now. */
  async account(account: BudgetAccount, context: CallContext = {}): Promise<BudgetAccountState> {
    const result = await this.call(
      budgetAccountSubject(this.options.natsPrefix),
      BUDGET_ACCOUNT,
      account,
      BUDGET_ACCOUNT_RESULT,
      parseBudgetAccountResult,
      context,
    );
    if (result.outcome === 'failed') {
      throw budgetFailureError(result);
    }
    return result;
  }

  /**
   * Reports what this worker knows of an account's cumulative request budget
   * (the venue's latest reading when new, the requests it sent there since
   * its last report) and answers the account's budget as the service keeps
   * it, or null while no worker has reported a reading of it.
   */
  async cumulative(
    request: BudgetCumulativeRequest,
    context: CallContext = {},
  ): Promise<CumulativeAccountQuota | null> {
    const result = await this.call(
      budgetCumulativeSubject(this.options.natsPrefix),
      BUDGET_CUMULATIVE,
      request,
      BUDGET_CUMULATIVE_RESULT,
      parseBudgetCumulativeResult,
      context,
    );
    if (result.outcome === 'failed') {
      throw budgetFailureError(result);
    }
    return result.quota;
  }

  /**
   * Follows one trade's shares for its worker: the listener gets the current
   * shares at once (via budget.get), every change of the accounts that read
   * names (one subscription per account, whatever the number of trades
   * watched on it), and a fresh read after each NATS reconnect and every
   * `refreshMs`. Stale messages are dropped by version; while the service is
   * unreachable the last shares stay in force.
   */
  watchTrade(
    tradeId: string,
    listener: ShareListener,
    options: TradeBudgetWatchOptions = {},
  ): TradeBudgetWatch {
    return this.feeds.watchTrade(tradeId, listener, options);
  }

  /**
   * Every account's changes (operators, tests), one `budget.shares_changed`
   * per account and change. Returns an unsubscribe function.
   */
  onAnyChange(listener: (change: Envelope<BudgetSharesChanged>) => void): () => void {
    return this.feeds.onAnyChange(listener);
  }

  /** Stops every watch. The NATS connection belongs to the caller and stays open. */
  close(): void {
    this.feeds.close();
  }

  /** A reserve that got no answer may have landed: give it back, best effort. */
  private compensate(tradeId: string, context: CallContext): void {
    // With the client's own timeout: the reserve's caller may have had less time to give.
    const { correlationId, causationId } = context;
    this.release(tradeId, 'create_failed', { correlationId, causationId }).catch(
      (releaseError: unknown) =>
        this.options.logger?.warn(
          { trade_id: tradeId, err: releaseError },
          'compensating budget release failed; the sweeper removes the holder after its grace period',
        ),
    );
  }

  private async call<R>(
    subject: string,
    type: string,
    payload: object,
    resultType: string,
    parseResult: (value: unknown) => R,
    context: CallContext,
  ): Promise<R> {
    const message = envelope(type, payload, {
      correlationId: context.correlationId,
      causationId: context.causationId,
    });
    const timeoutMs = Math.min(context.timeoutMs ?? this.timeoutMs, this.timeoutMs);
    let reply;
    try {
      reply = await this.nc.request(subject, encodeEnvelope(message), { timeout: timeoutMs });
    } catch (error) {
      throw new BudgetUnavailableError(
        `budget service did not answer ${type} within ${timeoutMs} ms`,
        error,
      );
    }
    try {
      return decodeEnvelope(reply.data, resultType, parseResult).payload;
    } catch (error) {
      throw new BudgetUnavailableError(`budget service sent an invalid ${resultType}`, error);
    }
  }
}
