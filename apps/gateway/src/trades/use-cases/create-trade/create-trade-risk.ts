import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import type { SizeType } from '@sts/domain';
import type { LiveTermsRow } from '@sts/persistence';
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
import type { CreateTradeRequest } from '../../dto/create-trade.request';

/** A limited user's create: what its check needs, gathered before the group's transaction. */
export interface CreateRisk {
  limits: EffectiveLimits;
  /**
   * The new trade's target in USD, null when no limit values it; the error
   * when its mid could not be read, answered at the check (after rules 1 and
   * 6, so a replay or an earlier rule still answers first).
   */
  notional: Big | Error | null;
  /** The user's live trades are read, under the risk lock, in the group's admit. */
  countsLiveTrades: boolean;
}

/**
 * Pre-trade risk limits on a create (issue 35): checked after rules 1 and 6
 * and before the budget reservation (rule 7), in the group's transaction,
 * under the user's risk lock held until the insert commits, so concurrent
 * creates of one user (on any replica) are counted one after the other.
 */
@Injectable()
export class CreateTradeRisk {
  constructor(
    private readonly reader: RiskLimitsReader,
    private readonly mids: MarketMids,
  ) {}

  /** The user's limits (cached, as of the request's arrival) and the trade's notional; undefined: no limit. */
  async prepare(
    userId: string,
    request: CreateTradeRequest,
    changeMark?: number,
  ): Promise<CreateRisk | undefined> {
    const limits = await this.reader.limitsOf(userId, changeMark);
    if (!hasLimits(limits)) {
      return undefined;
    }
    let notional: CreateRisk['notional'] = null;
    if (valuesNotional(limits)) {
      notional = await targetNotional(
        (request.size_type ?? 'base') as SizeType,
        new Big(request.target_size),
        () =>
          this.mids.midOf({
            market: request.market,
            longExchange: request.long_exchange,
            shortExchange: request.short_exchange,
          }),
      ).catch((error: unknown) => error as Error);
    }
    return { limits, notional, countsLiveTrades: countsLiveTrades(limits) };
  }

  /**
   * The create's refusal: 409 risk_limit_exceeded, or the 503 of a missing
   * mid; null when it passes. `liveTerms`: the user's, read under the lock.
   */
  async refusalOf(
    request: CreateTradeRequest,
    risk: CreateRisk,
    liveTerms: LiveTermsRow[] | undefined,
  ): Promise<unknown> {
    try {
      if (risk.notional instanceof Error) {
        throw risk.notional;
      }
      const exposure = risk.countsLiveTrades ? await exposureOf(liveTerms ?? [], this.mids) : null;
      assertWithinLimits(risk.limits, exposure, {
        kind: 'create',
        market: request.market,
        notional: risk.notional,
        maxSlippage: new Big(request.max_slippage),
      });
      return null;
    } catch (refusal) {
      return refusal;
    }
  }
}
