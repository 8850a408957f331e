import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  canTransition,
  finishFastMoveGuard,
  isExecutingTradeStatus,
  resolveFastMoveGuardSettings,
  startFastMoveGuard,
  type FastMoveGuardMode,
  type FastMoveGuardStats,
  type MakerLeg,
  type QuoteMode,
  isTradeStatus,
  type TradeStatus,
  type TradeTransition,
  transitionTrade,
} from '@sts/domain';
import { tradeLifecycleMessage } from '@sts/contracts';
import { addToOutbox, TradeRepository } from '@sts/persistence';
import { AppError } from '@sts/platform';
import type { GatewayConfig } from '../../../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../../../infrastructure/tokens';
import { GatewayOutbox } from '../../outbox/gateway-outbox';
import { RateBudgets } from '../create-trade/rate-budgets';
import { isUuid } from '../../trade.queries';
import { TradeControl } from '../trade-control';

/**
 * `canceled`: no worker held the trade, it is canceled now. `cancel_sent`: its
 * worker was asked (or is asked at its next lease renewal). `already_ended`: a
 * trade the transition table lets nothing cancel (terminal), left unchanged.
 */
export type CancelTradeOutcome =
  | { kind: 'canceled'; tradeId: string }
  | { kind: 'cancel_sent'; tradeId: string }
  | { kind: 'already_ended'; tradeId: string; status: TradeStatus };

/** Nothing moves a trade back to a status canceled here, so a second read always settles. */
const READS = 2;

/**
 * DELETE /api/v1/trades/{id}, allowed during maintenance. The trade's status
 * and the domain's transition table decide: a trade no worker owns (pending)
 * is canceled here through transitionTrade, by a compare-and-set on the
 * status read (a worker claiming it a moment later finds it canceled, one
 * that claimed it first makes the update miss: read again); an executing
 * trade gets `cancel_requested_at` (stored before anything is sent) and its
 * worker is told, which cancels the open orders, lets an in-flight hedge
 * finish, then marks it canceled; a trade the table does not let move to
 * canceled is left as it is.
 */
@Injectable()
export class CancelTradeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly control: TradeControl,
    private readonly budgets: RateBudgets,
    private readonly outbox: GatewayOutbox,
  ) {}

  async execute(
    userId: string,
    tradeId: string,
    correlationId: string,
  ): Promise<CancelTradeOutcome> {
    for (let read = 0; read < READS; read += 1) {
      const status = await this.statusOf(userId, tradeId);
      if (!canTransition(status, 'canceled')) {
        return { kind: 'already_ended', tradeId, status };
      }
      if (isExecutingTradeStatus(status)) {
        await this.requestCancel(userId, tradeId, correlationId);
        return { kind: 'cancel_sent', tradeId };
      }
      const transition = transitionTrade(status, 'canceled');
      if (await this.cancelDirectly(userId, tradeId, transition, correlationId)) {
        this.outbox.kick();
        await this.budgets.release(tradeId, 'canceled');
        return { kind: 'canceled', tradeId };
      }
    }
    throw new Error(`trade ${tradeId} kept changing status while it was canceled`);
  }

  private async statusOf(userId: string, tradeId: string): Promise<TradeStatus> {
    const status = isUuid(tradeId)
      ? await new TradeRepository(this.dataSource.manager).statusOfOwn(tradeId, userId)
      : null;
    if (status === null) {
      throw new AppError('trade_not_found', 'trade not found');
    }
    if (!isTradeStatus(status)) {
      throw new Error(`trade ${tradeId} has an unknown status ${status}`);
    }
    return status;
  }

  /** Stored first, then the owner is told; a worker that misses it sees it at its next renewal. */
  private async requestCancel(
    userId: string,
    tradeId: string,
    correlationId: string,
  ): Promise<void> {
    const trades = new TradeRepository(this.dataSource.manager);
    if (await trades.requestCancel(tradeId, userId)) {
      await this.control.notifyOwner(tradeId, 'cancel', 0, correlationId);
    }
  }

  /** The transition as a compare-and-set on its `from`, and its lifecycle event in the outbox. */
  private cancelDirectly(
    userId: string,
    tradeId: string,
    transition: TradeTransition,
    correlationId: string,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (db) => {
      const trades = new TradeRepository(db);
      const updated = await trades.cancelUnowned<GuardTerms>(tradeId, userId, transition);
      if (!updated) {
        return false;
      }
      // Ended before any worker ran it: its guard watched nothing (decisions 6).
      await trades.recordGuardStats(tradeId, unwatchedGuardStats(updated));
      const lifecycle = tradeLifecycleMessage(this.config.settings.natsPrefix, transition, {
        tradeId,
        userId,
        at: updated.updated_at,
        correlationId,
        data: { canceled_while: transition.from },
      });
      if (lifecycle) {
        await addToOutbox(db, lifecycle.subject, lifecycle.message);
      }
      return true;
    });
  }
}

/** What a trade row says of its fast-move guard. */
interface GuardTerms {
  maker_leg: MakerLeg;
  quote_mode: QuoteMode | null;
  fast_move_guard: FastMoveGuardMode | null;
}

/** The figures of a guard that never ran: its mode, every count 0. */
function unwatchedGuardStats(row: GuardTerms): FastMoveGuardStats {
  const settings = resolveFastMoveGuardSettings({
    quoteMode: row.quote_mode ?? 'default',
    ...(row.fast_move_guard ? { mode: row.fast_move_guard } : {}),
  });
  return finishFastMoveGuard(startFastMoveGuard(settings, row.maker_leg), Date.now());
}
