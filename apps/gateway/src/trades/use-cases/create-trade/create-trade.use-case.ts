import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { envelope, START_TRADE, startTradeMessageId, startTradeSubject } from '@sts/contracts';
import type { Principal } from '@sts/auth';
import { postgresPool, type CommittedRow } from '@sts/persistence';
import { AppError } from '@sts/platform';
import type { GatewayConfig } from '../../../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../../../infrastructure/tokens';
import { MaintenanceReader } from '../../../maintenance/maintenance.reader';
import { MarketCatalog } from '../../../markets/market-catalog';
import type { CreateTradeRequest } from '../../dto/create-trade.request';
import { GatewayOutbox } from '../../outbox/gateway-outbox';
import { CreateTradeTransaction, type SqlValue } from './create-trade.transaction';
import { resolveIdempotencyKey } from './idempotency-key';
import { readExistingReplay, readReplay } from './trade-replay';
import { RateBudgets, type GrantedBudgets } from './rate-budgets';
import { assertCoherentTerms, legsOf } from './trade-terms.validation';

/** A trade the create answers with: new, or the one its idempotency key already made. */
export interface AcceptedTrade {
  tradeId: string;
  status: string;
  rateBudget: number;
  hedgeRateBudget: number | null;
}

/** `created`: a new trade, committed. `replayed`: the idempotency key's earlier trade. */
export type CreateTradeOutcome =
  { kind: 'created'; trade: AcceptedTrade } | { kind: 'replayed'; trade: AcceptedTrade };

/** A new trade, committed, and its start command to publish. */
interface Created {
  created: CreateTradeOutcome;
  startCommand: CommittedRow;
}

const UNIQUE_VIOLATION = '23505';

/**
 * POST /api/v1/trades. Checks run in the order of decisions section 4:
 * idempotency (a replay answers here), 4 same exchange, 3 kill switch,
 * 2 maintenance, 5 market, then, inside one transaction that holds a lock on
 * the (maker wallet, cap group): 1 credentials and wallet ownership, 6 maker
 * cap, 7 rate budget. The trade row and its start command commit together
 * (outbox); the command is published right after the commit (the relay's
 * poll publishes it if that fails).
 *
 * Round trips of a new trade: the switches and markets are in memory, the
 * replay is read under the lock with the other checks (before it only when a
 * rule refuses: a replay answers 200 whatever the rules say now), so Postgres
 * sees two (CreateTradeTransaction) and NATS one (the budget reservation).
 */
@Injectable()
export class CreateTradeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly maintenance: MaintenanceReader,
    private readonly markets: MarketCatalog,
    private readonly budgets: RateBudgets,
    private readonly outbox: GatewayOutbox,
  ) {}

  /** `changeMark`: ChangeFeed.mark() when the request arrived (the switches it must see). */
  async execute(
    principal: Principal,
    request: CreateTradeRequest,
    headerKey: string | undefined,
    correlationId: string,
    changeMark?: number,
  ): Promise<CreateTradeOutcome> {
    const idempotencyKey = resolveIdempotencyKey(headerKey, request.idempotency_key);
    try {
      await this.assertRulesBeforeTheLock(request, changeMark);
    } catch (refusal) {
      const replay = await this.replay(principal.userId, idempotencyKey);
      if (replay) {
        return replay;
      }
      throw refusal;
    }

    const transaction = await CreateTradeTransaction.open(this.dataSource);
    const tradeId = randomUUID();
    let reserved = false;
    // null: the idempotency key's trade exists, found under the lock.
    let outcome: Created | null;
    try {
      outcome = await this.admitAndInsert(transaction, tradeId, principal.userId, request, {
        idempotencyKey,
        correlationId,
        onReserved: () => (reserved = true),
      });
    } catch (error) {
      await transaction.close(true);
      if (reserved) {
        await this.budgets.release(tradeId, 'create_failed').catch(() => undefined);
      }
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        const winner = await this.replay(principal.userId, idempotencyKey);
        if (winner) {
          return winner;
        }
      }
      throw error;
    }
    // A replay found under the lock leaves the transaction open: rolled back, lock released.
    await transaction.close(outcome === null);
    if (outcome === null) {
      return await readExistingReplay(
        postgresPool(this.dataSource),
        principal.userId,
        idempotencyKey,
      );
    }
    this.outbox.publishCommitted(outcome.startCommand);
    return outcome.created;
  }

  /** Rules 1, 6 and 7 under the lock, then the row and its start command; commits a new trade. */
  private async admitAndInsert(
    transaction: CreateTradeTransaction,
    tradeId: string,
    userId: string,
    request: CreateTradeRequest,
    context: { idempotencyKey: string; correlationId: string; onReserved: () => void },
  ): Promise<Created | null> {
    const legs = legsOf(request);
    const makerVenue = this.config.venues[legs.maker.exchange as keyof GatewayConfig['venues']];
    const admission = await transaction.admit({
      userId,
      idempotencyKey: context.idempotencyKey,
      capLock: `maker-cap:${legs.maker.wallet}:${makerVenue.capGroup}`,
      legs: [legs.long, legs.short],
      maker: { wallet: legs.maker.wallet, capGroup: makerVenue.capGroup },
    });
    if (admission.replayed) {
      return null;
    }
    assertCredentialsLinked(admission.linked, [legs.long, legs.short]);
    assertUnderMakerCap(admission.live, legs.maker, makerVenue.makerCap);

    const budget = await this.budgets.reserve({
      tradeId,
      maker: { venue: legs.maker.exchange, wallet: legs.maker.wallet },
      hedge: { venue: legs.hedge.exchange, wallet: legs.hedge.wallet },
      correlationId: context.correlationId,
    });
    context.onReserved();
    const row = this.newTrade(
      tradeId,
      userId,
      context.idempotencyKey,
      request,
      legs,
      makerVenue.capGroup,
      budget,
    );
    const startCommand = this.startCommand(tradeId, userId, context);
    await transaction.insertAndCommit(row, startCommand);
    return {
      created: {
        kind: 'created',
        trade: {
          tradeId,
          status: 'pending',
          rateBudget: budget.rateBudget,
          hedgeRateBudget: budget.hedgeRateBudget,
        },
      },
      startCommand,
    };
  }

  /** The worker's start command, committed in the outbox with the row. */
  private startCommand(
    tradeId: string,
    userId: string,
    context: { correlationId: string },
  ): CommittedRow {
    const messageId = startTradeMessageId(tradeId);
    return {
      subject: startTradeSubject(this.config.settings.natsPrefix),
      message_id: messageId,
      payload: envelope(
        START_TRADE,
        { trade_id: tradeId, user_id: userId },
        { messageId, correlationId: context.correlationId },
      ),
    };
  }

  /** Rules 4, 3, 2 and 5: all answered from memory. */
  private async assertRulesBeforeTheLock(
    request: CreateTradeRequest,
    changeMark: number | undefined,
  ): Promise<void> {
    if (request.long_exchange === request.short_exchange) {
      throw new AppError('same_exchange', 'long_exchange and short_exchange must differ');
    }
    assertCoherentTerms(request);
    await this.maintenance.assertTradingAllowed(
      [request.long_exchange, request.short_exchange],
      changeMark,
    );
    await this.markets.resolveTradeable(
      request.market,
      request.long_exchange,
      request.short_exchange,
    );
  }

  private replay(userId: string, idempotencyKey: string): Promise<CreateTradeOutcome | null> {
    return readReplay(postgresPool(this.dataSource), userId, idempotencyKey);
  }

  /** The row's columns; everything else takes the table's defaults. */
  private newTrade(
    id: string,
    userId: string,
    idempotencyKey: string,
    request: CreateTradeRequest,
    legs: ReturnType<typeof legsOf>,
    capGroup: string,
    budget: GrantedBudgets,
  ): Record<string, SqlValue> {
    return {
      id,
      user_id: userId,
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
      cap_group: capGroup,
      target_spread: request.target_spread,
      spread_condition: request.spread_condition,
      spread_type: request.spread_type ?? 'absolute',
      target_size: request.target_size,
      size_type: request.size_type ?? 'base',
      execution_type: request.execution_type,
      max_slippage: request.max_slippage,
      status: 'pending',
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
      idempotency_key: idempotencyKey,
    };
  }
}

/** Rule 1. The wallet rows stay share-locked until commit, so an unlink cannot race the create. */
function assertCredentialsLinked(
  linked: Set<string>,
  legs: Array<{ exchange: string; wallet: string }>,
): void {
  const missing = legs.filter((leg) => !linked.has(`${leg.exchange} ${leg.wallet}`));
  if (missing.length > 0) {
    throw new AppError(
      'credentials_not_linked',
      `no active credentials linked for ${missing.map((leg) => `${leg.wallet} on ${leg.exchange}`).join(' and ')}`,
    );
  }
}

/** Rule 6, counted under the advisory lock taken for this (wallet, cap group). */
function assertUnderMakerCap(
  live: number,
  maker: { exchange: string; wallet: string },
  cap: number,
): void {
  if (live >= cap) {
    throw new AppError(
      'maker_cap_exceeded',
      `max ${cap} concurrent maker trades on ${maker.exchange} per wallet: wallet ${maker.wallet} already has ${live} active`,
      { details: { exchange: maker.exchange, cap, active: live } },
    );
  }
}
