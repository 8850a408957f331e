import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { envelope, TRADE_LIFECYCLE, tradeLifecycleSubject } from '@sts/contracts';
import { addToOutbox, queryRows, TradeEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';
import type { GatewayConfig } from '../../../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../../../infrastructure/tokens';
import { GatewayOutbox } from '../../outbox/gateway-outbox';
import { RateBudgets } from '../create-trade/rate-budgets';
import { isUuid } from '../../trade.queries';
import { TradeControl } from '../trade-control';

export interface CancelTradeResult {
  httpStatus: 200 | 202;
  body: { status: 'canceled' | 'cancel_sent'; trade_id: string };
}

/**
 * DELETE /api/v1/trades/{id}, allowed during maintenance. A pending trade is
 * canceled here, by one conditional UPDATE: a worker claiming it a moment
 * later finds it canceled. An executing trade gets `cancel_requested_at`
 * (stored before anything is sent) and its worker is told; the worker cancels
 * the open orders, lets an in-flight hedge finish, then marks it canceled.
 * A finished trade is a no-op.
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
  ): Promise<CancelTradeResult> {
    if (!isUuid(tradeId)) {
      throw new AppError('trade_not_found', 'trade not found');
    }
    const canceledWhilePending = await this.cancelIfPending(userId, tradeId, correlationId);
    if (canceledWhilePending) {
      this.outbox.kick();
      await this.budgets.release(tradeId, 'canceled');
      return { httpStatus: 200, body: { status: 'canceled', trade_id: tradeId } };
    }
    const requested = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE trades SET cancel_requested_at = COALESCE(cancel_requested_at, now()), updated_at = now()
       WHERE id = $1 AND user_id = $2 AND status IN ('validating', 'active', 'paused', 'recovering')
       RETURNING id`,
      [tradeId, userId],
    );
    if (requested.length > 0) {
      await this.control.notifyOwner(tradeId, 'cancel', 0, correlationId);
      return { httpStatus: 202, body: { status: 'cancel_sent', trade_id: tradeId } };
    }
    const exists = await this.dataSource
      .getRepository(TradeEntity)
      .existsBy({ id: tradeId, userId });
    if (!exists) {
      throw new AppError('trade_not_found', 'trade not found');
    }
    return { httpStatus: 202, body: { status: 'cancel_sent', trade_id: tradeId } };
  }

  private cancelIfPending(
    userId: string,
    tradeId: string,
    correlationId: string,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (db) => {
      const rows = await queryRows<{ completed_at: Date }>(
        db,
        `UPDATE trades SET status = 'canceled', cancel_requested_at = now(), completed_at = now(), updated_at = now()
         WHERE id = $1 AND user_id = $2 AND status = 'pending'
         RETURNING completed_at`,
        [tradeId, userId],
      );
      if (rows.length === 0) {
        return false;
      }
      await addToOutbox(
        db,
        tradeLifecycleSubject(this.config.settings.natsPrefix, tradeId),
        envelope(
          TRADE_LIFECYCLE,
          {
            event: 'trade.canceled',
            trade_id: tradeId,
            user_id: userId,
            status: 'canceled',
            timestamp: rows[0].completed_at.toISOString(),
            data: { canceled_while: 'pending' },
          },
          { messageId: `lifecycle-${tradeId}-canceled`, correlationId },
        ),
      );
      return true;
    });
  }
}
