import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import { DataSource, type EntityManager } from 'typeorm';
import {
  formatDecimal,
  isAmendableTradeStatus,
  isExecutingTradeStatus,
  type TradeStatus,
} from '@sts/domain';
import { type TradeEntity, TradeRepository } from '@sts/persistence';
import { AppError } from '@sts/platform';
import { MaintenanceReader } from '../../../maintenance/maintenance.reader';
import type { EffectiveLimits } from '../../../risk-limits/effective-limits';
import type { AmendTradeRequest } from '../../dto/amend-trade.request';
import { isUuid } from '../../trade.queries';
import { TradeControl } from '../trade-control';
import { AmendTradeRisk } from './amend-trade-risk';
import { filledSizeIn } from './filled-size-in-unit';

/**
 * `sent`: the owning worker acknowledged and applies it on its next quote
 * cycle. `persisted`: stored, but nobody acknowledged (a pending trade, no
 * owner, a timeout): it applies when the trade is next run or renewed.
 */
export type AmendTradeOutcome =
  { kind: 'sent'; tradeId: string } | { kind: 'persisted'; tradeId: string };

const FIELDS = [
  'target_size',
  'target_spread',
  'max_slippage',
  'size_type',
  'spread_type',
] as const;

/**
 * PATCH /api/v1/trades/{id}. The amended terms are written to the trade row
 * first (checked against filled_size in the same statement, so a fill racing
 * the amendment cannot slip under it); then the owning worker is asked to
 * apply them on its next quote cycle. A change of size_type carries
 * target_size and is checked in the new unit (decisions section 8). An
 * amendment that grows a limited user's trade is checked against their risk
 * limits first, under their risk lock (409 risk_limit_exceeded).
 */
@Injectable()
export class AmendTradeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly maintenance: MaintenanceReader,
    private readonly control: TradeControl,
    private readonly risk: AmendTradeRisk,
  ) {}

  async execute(
    userId: string,
    tradeId: string,
    request: AmendTradeRequest,
    correlationId: string,
  ): Promise<AmendTradeOutcome> {
    const changes = Object.fromEntries(
      FIELDS.filter((field) => request[field] !== undefined).map((f) => [f, request[f]]),
    );
    if (Object.keys(changes).length === 0) {
      throw new AppError('invalid_request', `at least one of ${FIELDS.join(', ')} is required`);
    }
    if (request.spread_type !== undefined && request.target_spread === undefined) {
      throw new AppError(
        'invalid_request',
        'spread_type can only be amended together with target_spread',
      );
    }
    const trade = isUuid(tradeId)
      ? await new TradeRepository(this.dataSource.manager).findOwn(tradeId, userId)
      : null;
    if (!trade) {
      throw new AppError('trade_not_found', 'trade not found');
    }
    if (!isAmendableTradeStatus(trade.status as TradeStatus)) {
      throw new AppError('trade_not_amendable', `a ${trade.status} trade cannot be amended`);
    }
    await this.maintenance.assertNotInMaintenance([trade.longExchange, trade.shortExchange]);

    const limits = await this.risk.limitsFor(userId, request);
    const version = await this.store(trade, request, changes, limits);
    // An amendable trade is pending (no owner yet) or executing (a worker to tell).
    const sent =
      isExecutingTradeStatus(trade.status as TradeStatus) &&
      (await this.control.notifyOwner(trade.id, 'amend', version, correlationId));
    return { kind: sent ? 'sent' : 'persisted', tradeId: trade.id };
  }

  /**
   * A change of size_type restates filled_size in the new unit, decided under
   * the row's lock: a worker's append (its fills and filled_size) commits
   * before the count or waits for the amendment, never in between. Risk
   * limits are checked in the same transaction, before the write.
   */
  private async store(
    trade: TradeEntity,
    request: AmendTradeRequest,
    changes: Record<string, unknown>,
    limits: EffectiveLimits | undefined,
  ): Promise<number> {
    const newUnit = request.size_type;
    if (newUnit === undefined && !limits) {
      return this.writeTerms(this.dataSource.manager, trade, request, changes, null);
    }
    return this.dataSource.transaction(async (manager) => {
      if (limits) {
        await this.risk.assertAmendment(manager, trade, request, limits);
      }
      if (newUnit === undefined) {
        return this.writeTerms(manager, trade, request, changes, null);
      }
      const locked = await new TradeRepository(manager).lockSizeType(trade.id);
      if (locked === null || locked === newUnit) {
        return this.writeTerms(manager, trade, request, changes, null);
      }
      if (request.target_size === undefined) {
        throw new AppError(
          'invalid_request',
          `changing size_type from ${locked} to ${newUnit} needs target_size, in ${newUnit}`,
        );
      }
      const filled = await filledSizeIn(manager, trade.id, newUnit);
      refuseBelowFilled(request.target_size, filled);
      return this.writeTerms(manager, trade, request, changes, filled);
    });
  }

  /**
   * The amended terms in one statement, guarded by the status and by
   * filled_size (`restatedFilled` when the unit changes, else the row's).
   */
  private async writeTerms(
    manager: EntityManager,
    trade: TradeEntity,
    request: AmendTradeRequest,
    changes: Record<string, unknown>,
    restatedFilled: Big | null,
  ): Promise<number> {
    const trades = new TradeRepository(manager);
    const version = await trades.amendTerms({
      tradeId: trade.id,
      userId: trade.userId,
      targetSize: request.target_size ?? null,
      targetSpread: request.target_spread ?? null,
      spreadType: request.spread_type ?? null,
      maxSlippage: request.max_slippage ?? null,
      sizeType: request.size_type ?? null,
      amendment: { ...changes, requested_at: new Date().toISOString() },
      restatedFilled: restatedFilled === null ? null : formatDecimal(restatedFilled),
    });
    if (version !== null) {
      return version;
    }
    const current = await trades.findById(trade.id);
    if (request.target_size !== undefined) {
      refuseBelowFilled(request.target_size, restatedFilled ?? new Big(current.filledSize));
    }
    throw new AppError('trade_not_amendable', `a ${current.status} trade cannot be amended`);
  }
}

/** 400 when the new target is below what is filled (interface: PATCH behaviour 2). */
function refuseBelowFilled(targetSize: string, filled: Big): void {
  if (new Big(targetSize).lt(filled)) {
    throw new AppError(
      'invalid_request',
      `target_size ${targetSize} is below filled_size ${formatDecimal(filled)}`,
    );
  }
}
