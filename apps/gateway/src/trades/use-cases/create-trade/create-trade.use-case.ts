import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { envelope, START_TRADE, startTradeMessageId, startTradeSubject } from '@sts/contracts';
import type { Principal } from '@sts/auth';
import { addToOutbox, LIVE_TRADE_STATUSES, TradeEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';
import type { GatewayConfig } from '../../../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../../../infrastructure/tokens';
import { MaintenanceReader } from '../../../maintenance/maintenance.reader';
import { MarketCatalog } from '../../../markets/market-catalog';
import type { CreateTradeRequest } from '../../dto/create-trade.request';
import { GatewayOutbox } from '../../outbox/gateway-outbox';
import { resolveIdempotencyKey } from './idempotency-key';
import { RateBudgets } from './rate-budgets';
import { assertCoherentTerms, legsOf } from './trade-terms.validation';

export interface CreateTradeResult {
  /** 202 for a new trade, 200 for a replayed idempotency key. */
  httpStatus: 200 | 202;
  body: {
    trade_id: string;
    status: string;
    rate_budget: number;
    hedge_rate_budget?: number;
    idempotent?: true;
  };
}

const UNIQUE_VIOLATION = '23505';

/**
 * POST /api/v1/trades. Checks run in the order of decisions section 4:
 * idempotency (a replay answers here), 4 same exchange, 3 kill switch,
 * 2 maintenance, 5 market, then, inside one transaction that holds a lock on
 * the (maker wallet, cap group): 1 credentials and wallet ownership, 6 maker
 * cap, 7 rate budget. The trade row and its start command commit together
 * (outbox); the relay publishes the command right after the commit.
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

  async execute(
    principal: Principal,
    request: CreateTradeRequest,
    headerKey: string | undefined,
    correlationId: string,
  ): Promise<CreateTradeResult> {
    const idempotencyKey = resolveIdempotencyKey(headerKey, request.idempotency_key);
    const replay = await this.replay(this.dataSource.manager, principal.userId, idempotencyKey);
    if (replay) return replay;

    if (request.long_exchange === request.short_exchange) {
      throw new AppError('same_exchange', 'long_exchange and short_exchange must differ');
    }
    assertCoherentTerms(request);
    await this.maintenance.assertTradingAllowed([request.long_exchange, request.short_exchange]);
    await this.markets.resolveTradeable(
      request.market,
      request.long_exchange,
      request.short_exchange,
    );

    const tradeId = randomUUID();
    const legs = legsOf(request);
    const makerVenue = this.config.venues[legs.maker.exchange as keyof GatewayConfig['venues']];
    let reserved = false;
    try {
      const result = await this.dataSource.transaction(async (db) => {
        await db.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
          `maker-cap:${legs.maker.wallet}:${makerVenue.capGroup}`,
        ]);
        const concurrentReplay = await this.replay(db, principal.userId, idempotencyKey);
        if (concurrentReplay) return concurrentReplay;
        await this.assertCredentialsLinked(db, principal.userId, [legs.long, legs.short]);
        await this.assertUnderMakerCap(db, legs.maker, makerVenue.capGroup, makerVenue.makerCap);

        const budget = await this.budgets.reserve({
          tradeId,
          maker: { venue: legs.maker.exchange, wallet: legs.maker.wallet },
          hedge: { venue: legs.hedge.exchange, wallet: legs.hedge.wallet },
          correlationId,
        });
        reserved = true;
        await db
          .getRepository(TradeEntity)
          .insert(
            this.newTrade(
              tradeId,
              principal.userId,
              idempotencyKey,
              request,
              legs,
              makerVenue.capGroup,
              budget,
            ),
          );
        await addToOutbox(
          db,
          startTradeSubject(this.config.settings.natsPrefix),
          envelope(
            START_TRADE,
            { trade_id: tradeId, user_id: principal.userId },
            {
              messageId: startTradeMessageId(tradeId),
              correlationId,
            },
          ),
        );
        return {
          httpStatus: 202 as const,
          body: {
            trade_id: tradeId,
            status: 'pending',
            rate_budget: budget.rateBudget,
            ...(budget.hedgeRateBudget !== null
              ? { hedge_rate_budget: budget.hedgeRateBudget }
              : {}),
          },
        };
      });
      if (result.httpStatus === 200 && reserved)
        await this.budgets.release(tradeId, 'create_failed');
      if (result.httpStatus === 202) this.outbox.kick();
      return result;
    } catch (error) {
      if (reserved) await this.budgets.release(tradeId, 'create_failed').catch(() => undefined);
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        const winner = await this.replay(this.dataSource.manager, principal.userId, idempotencyKey);
        if (winner) return winner;
      }
      throw error;
    }
  }

  private async replay(
    db: EntityManager,
    userId: string,
    idempotencyKey: string,
  ): Promise<CreateTradeResult | null> {
    const trade = await db.getRepository(TradeEntity).findOne({
      where: { userId, idempotencyKey },
      select: { id: true, status: true, rateBudget: true, hedgeRateBudget: true },
    });
    if (!trade) return null;
    return {
      httpStatus: 200,
      body: {
        trade_id: trade.id,
        status: trade.status,
        rate_budget: trade.rateBudget,
        ...(trade.hedgeRateBudget !== null ? { hedge_rate_budget: trade.hedgeRateBudget } : {}),
        idempotent: true,
      },
    };
  }

  /** Rule 1. The wallet rows stay share-locked until commit, so an unlink cannot race the create. */
  private async assertCredentialsLinked(
    db: EntityManager,
    userId: string,
    legs: Array<{ exchange: string; wallet: string }>,
  ): Promise<void> {
    const rows: Array<{ exchange: string; wallet_addr: string }> = await db.query(
      `SELECT c.exchange, c.wallet_addr FROM exchange_credentials c
       JOIN wallets w ON w.address = c.wallet_addr AND w.user_id = $1
       WHERE c.user_id = $1 AND c.status = 'active'
         AND ((c.exchange = $2 AND c.wallet_addr = $3) OR (c.exchange = $4 AND c.wallet_addr = $5))
       FOR SHARE OF w`,
      [userId, legs[0].exchange, legs[0].wallet, legs[1].exchange, legs[1].wallet],
    );
    const missing = legs.filter(
      (leg) => !rows.some((row) => row.exchange === leg.exchange && row.wallet_addr === leg.wallet),
    );
    if (missing.length > 0) {
      throw new AppError(
        'credentials_not_linked',
        `no active credentials linked for ${missing.map((leg) => `${leg.wallet} on ${leg.exchange}`).join(' and ')}`,
      );
    }
  }

  /** Rule 6, counted under the advisory lock taken for this (wallet, cap group). */
  private async assertUnderMakerCap(
    db: EntityManager,
    maker: { exchange: string; wallet: string },
    capGroup: string,
    cap: number,
  ): Promise<void> {
    const [{ live }]: Array<{ live: number }> = await db.query(
      `SELECT count(*)::int AS live FROM trades
       WHERE maker_wallet = $1 AND cap_group = $2 AND status = ANY($3)`,
      [maker.wallet, capGroup, LIVE_TRADE_STATUSES],
    );
    if (live >= cap) {
      throw new AppError(
        'maker_cap_exceeded',
        `max ${cap} concurrent maker trades on ${maker.exchange} per wallet: wallet ${maker.wallet} already has ${live} active`,
        { details: { exchange: maker.exchange, cap, active: live } },
      );
    }
  }

  private newTrade(
    id: string,
    userId: string,
    idempotencyKey: string,
    request: CreateTradeRequest,
    legs: ReturnType<typeof legsOf>,
    capGroup: string,
    budget: { rateBudget: number; hedgeRateBudget: number | null },
  ): Omit<Partial<TradeEntity>, 'fastMoveGuardStats' | 'amendment'> {
    return {
      id,
      userId,
      market: request.market,
      longExchange: legs.long.exchange,
      longWallet: legs.long.wallet,
      shortExchange: legs.short.exchange,
      shortWallet: legs.short.wallet,
      makerLeg: request.maker_leg,
      makerExchange: legs.maker.exchange,
      makerWallet: legs.maker.wallet,
      hedgeExchange: legs.hedge.exchange,
      hedgeWallet: legs.hedge.wallet,
      capGroup,
      targetSpread: request.target_spread,
      spreadCondition: request.spread_condition,
      spreadType: request.spread_type ?? 'absolute',
      targetSize: request.target_size,
      sizeType: request.size_type ?? 'base',
      executionType: request.execution_type,
      maxSlippage: request.max_slippage,
      status: 'pending',
      rateBudget: budget.rateBudget,
      hedgeRateBudget: budget.hedgeRateBudget,
      quoteMode: request.quote_mode ?? 'default',
      worstSpread: request.worst_spread ?? null,
      fastMoveGuard: request.fast_move_guard ?? null,
      fastMoveGuardBps: request.fast_move_guard_bps?.toString() ?? null,
      fastMoveWindowMs: request.fast_move_window_ms ?? null,
      fastMoveSettleMs: request.fast_move_settle_ms ?? null,
      idempotencyKey,
    };
  }
}
