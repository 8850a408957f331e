import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '@sts/auth';
import { TradeRepository } from '@sts/persistence';
import { AppError } from '@sts/platform';
import type { GatewayConfig } from '../../../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../../../infrastructure/tokens';
import { MaintenanceReader } from '../../../maintenance/maintenance.reader';
import { MarketCatalog } from '../../../markets/market-catalog';
import type { CreateTradeRequest } from '../../dto/create-trade.request';
import { GatewayOutbox } from '../../outbox/gateway-outbox';
import { CreateTradeGroups, type PendingCreate } from './create-trade-groups';
import { CreateTradeRisk, type CreateRisk } from './create-trade-risk';
import { resolveIdempotencyKey } from './idempotency-key';
import { readExistingReplay, readReplay } from './trade-replay';
import { assertCoherentTerms, legsOf } from './trade-terms.validation';
import type { CreateTradeOutcome } from './create-trade-outcome';

export type { AcceptedTrade, CreateTradeOutcome } from './create-trade-outcome';

const UNIQUE_VIOLATION = '23505';

/**
 * POST /api/v1/trades. Checks run in the order of decisions section 4:
 * idempotency (a replay answers here), 4 same exchange, 3 kill switch,
 * 2 maintenance, 5 market, then, inside one transaction that holds a lock on
 * the (maker wallet, cap group) and one on the user: 1 credentials and wallet
 * ownership, 6 maker cap, the user's risk limits (409 risk_limit_exceeded,
 * decisions section 8), 7 rate budget. The trade row and its start command commit together
 * (outbox); the command is published right after the commit (the relay's
 * poll publishes it if that fails).
 *
 * Round trips of a new trade: the switches and markets are in memory, the
 * replay is read under the lock with the other checks (before it only when a
 * rule refuses: a replay answers 200 whatever the rules say now), so Postgres
 * sees two (shared by every create of its group, CreateTradeGroups) and NATS
 * one (the budget reservation).
 */
@Injectable()
export class CreateTradeUseCase {
  private readonly trades: TradeRepository;

  constructor(
    dataSource: DataSource,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly maintenance: MaintenanceReader,
    private readonly markets: MarketCatalog,
    private readonly groups: CreateTradeGroups,
    private readonly outbox: GatewayOutbox,
    private readonly risk: CreateTradeRisk,
  ) {
    this.trades = new TradeRepository(dataSource.manager);
  }

  /** `changeMark`: ChangeFeed.mark() when the request arrived (the switches it must see). */
  async execute(
    principal: Principal,
    request: CreateTradeRequest,
    headerKey: string | undefined,
    correlationId: string,
    changeMark?: number,
  ): Promise<CreateTradeOutcome> {
    const deadlineMs = performance.now() + this.config.settings.createDeadlineMs;
    const idempotencyKey = resolveIdempotencyKey(headerKey, request.idempotency_key);
    let risk: CreateRisk | undefined;
    try {
      await this.assertRulesBeforeTheLock(request, changeMark);
      risk = await this.risk.prepare(principal.userId, request, changeMark);
    } catch (refusal) {
      const replay = await this.replay(principal.userId, idempotencyKey);
      if (replay) {
        return replay;
      }
      throw refusal;
    }

    const settled = await this.groups.submit(
      this.pending(principal.userId, idempotencyKey, request, correlationId, risk, deadlineMs),
    );
    if ('error' in settled) {
      const error = settled.error;
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        const winner = await this.replay(principal.userId, idempotencyKey);
        if (winner) {
          return winner;
        }
      }
      throw error;
    }
    const { answer } = settled;
    if (answer.kind === 'replayed') {
      return await readExistingReplay(this.trades, principal.userId, idempotencyKey);
    }
    this.outbox.publishCommitted(answer.startCommand);
    return {
      kind: 'created',
      trade: {
        tradeId: answer.tradeId,
        status: 'pending',
        rateBudget: answer.rateBudget,
        hedgeRateBudget: answer.hedgeRateBudget,
      },
    };
  }

  /** The create as its group runs it: rules 1, 6, the risk limits and 7 under the locks, then its insert. */
  private pending(
    userId: string,
    idempotencyKey: string,
    request: CreateTradeRequest,
    correlationId: string,
    risk: CreateRisk | undefined,
    deadlineMs: number,
  ): PendingCreate {
    const legs = legsOf(request);
    const makerVenue = this.config.venues[legs.maker.exchange as keyof GatewayConfig['venues']];
    return {
      trade: {
        id: randomUUID(),
        userId,
        idempotencyKey,
        request,
        legs,
        capGroup: makerVenue.capGroup,
      },
      makerCap: makerVenue.makerCap,
      correlationId,
      reserved: false,
      deadlineMs,
      ...(risk ? { risk } : {}),
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
    return readReplay(this.trades, userId, idempotencyKey);
  }
}
