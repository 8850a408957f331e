import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import type { EntityManager } from 'typeorm';
import type { SizeType } from '@sts/domain';
import { lockRiskOf, readLiveTerms, type TradeEntity, TradeRepository } from '@sts/persistence';
import {
  countsLiveTrades,
  hasLimits,
  valuesNotional,
  type EffectiveLimits,
} from '../../../risk-limits/effective-limits';
import { exposureOf, targetNotional } from '../../../risk-limits/exposure';
import { MarketMids } from '../../../risk-limits/market-mids';
import { assertWithinLimits } from '../../../risk-limits/risk-check';
import { RiskLimitsReader } from '../../../risk-limits/risk-limits.reader';
import type { AmendTradeRequest } from '../../dto/amend-trade.request';

/**
 * Pre-trade risk limits on a PATCH (issue 35). Only what grows is checked:
 * a target whose notional rises (target_size, or size_type with it) and a
 * max_slippage raised. Lowering a trade is always allowed, even past a limit
 * set after it was created.
 */
@Injectable()
export class AmendTradeRisk {
  constructor(
    private readonly reader: RiskLimitsReader,
    private readonly mids: MarketMids,
  ) {}

  /** The user's limits when the amendment touches what they weigh; undefined: nothing to check. */
  async limitsFor(
    userId: string,
    request: AmendTradeRequest,
  ): Promise<EffectiveLimits | undefined> {
    const { target_size, size_type, max_slippage } = request;
    if (target_size === undefined && size_type === undefined && max_slippage === undefined) {
      return undefined;
    }
    const limits = await this.reader.limitsOf(userId);
    return hasLimits(limits) ? limits : undefined;
  }

  /**
   * In the amendment's transaction, before its write: takes the user's risk
   * lock (as a create does) and the trade row's, then throws 409
   * risk_limit_exceeded when the amendment would break a limit.
   */
  async assertAmendment(
    manager: EntityManager,
    trade: { id: string; userId: string },
    request: AmendTradeRequest,
    limits: EffectiveLimits,
  ): Promise<void> {
    await lockRiskOf(manager, trade.userId);
    const current = await new TradeRepository(manager).lockById(trade.id);
    if (!current) {
      return;
    }
    const maxSlippage =
      request.max_slippage !== undefined && new Big(request.max_slippage).gt(current.maxSlippage)
        ? new Big(request.max_slippage)
        : null;
    const notional = valuesNotional(limits) ? await this.grownNotional(current, request) : null;
    if (!notional && !maxSlippage) {
      return;
    }
    const exposure =
      notional && countsLiveTrades(limits)
        ? await exposureOf(await readLiveTerms(manager, trade.userId, trade.id), this.mids)
        : null;
    assertWithinLimits(limits, exposure, {
      kind: 'amend',
      market: current.market,
      notional,
      maxSlippage,
    });
  }

  /** The amended target in USD when it is above the current one at the same mid; else null. */
  private async grownNotional(
    current: TradeEntity,
    request: AmendTradeRequest,
  ): Promise<Big | null> {
    const unit = (request.size_type ?? current.sizeType) as SizeType;
    if (request.target_size === undefined && unit !== current.sizeType) {
      // A unit change without its target is refused by the write (400): nothing to value.
      return null;
    }
    if (request.target_size === undefined && request.size_type === undefined) {
      return null;
    }
    let mid: Promise<Big> | undefined;
    const midOnce = (): Promise<Big> =>
      (mid ??= this.mids.midOf({
        market: current.market,
        longExchange: current.longExchange,
        shortExchange: current.shortExchange,
      }));
    const before = await targetNotional(
      current.sizeType as SizeType,
      new Big(current.targetSize),
      midOnce,
    );
    const after = await targetNotional(
      unit,
      new Big(request.target_size ?? current.targetSize),
      midOnce,
    );
    return after.gt(before) ? after : null;
  }
}
