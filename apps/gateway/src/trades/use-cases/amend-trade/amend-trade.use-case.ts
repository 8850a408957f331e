import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import {
  AMENDABLE_TRADE_STATUSES,
  isAmendableTradeStatus,
  type TradeStatus,
  tradeStatusList,
} from '@sts/domain';
import { queryRows, TradeEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';
import { MaintenanceReader } from '../../../maintenance/maintenance.reader';
import type { AmendTradeRequest } from '../../dto/amend-trade.request';
import { isUuid } from '../../trade.queries';
import { TradeControl } from '../trade-control';

/**
 * `sent`: the owning worker acknowledged and applies it on its next quote
 * cycle. `persisted`: stored, but nobody acknowledged (a pending trade, no
 * owner, a timeout): it applies when the trade is next run or renewed.
 */
export type AmendTradeOutcome =
  { kind: 'sent'; tradeId: string } | { kind: 'persisted'; tradeId: string };

/** The statuses PATCH may amend (domain; decisions 4), as the SQL guard takes them. */
const AMENDABLE_STATUSES: readonly TradeStatus[] = tradeStatusList(AMENDABLE_TRADE_STATUSES);

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
 * apply them on its next quote cycle.
 */
@Injectable()
export class AmendTradeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly maintenance: MaintenanceReader,
    private readonly control: TradeControl,
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
      ? await this.dataSource.getRepository(TradeEntity).findOneBy({ id: tradeId, userId })
      : null;
    if (!trade) {
      throw new AppError('trade_not_found', 'trade not found');
    }
    if (!isAmendableTradeStatus(trade.status as TradeStatus)) {
      throw new AppError('trade_not_amendable', `a ${trade.status} trade cannot be amended`);
    }
    await this.maintenance.assertNotInMaintenance([trade.longExchange, trade.shortExchange]);

    const version = await this.store(trade, request, changes);
    const sent =
      trade.status !== 'pending' &&
      (await this.control.notifyOwner(trade.id, 'amend', version, correlationId));
    return { kind: sent ? 'sent' : 'persisted', tradeId: trade.id };
  }

  private async store(
    trade: TradeEntity,
    request: AmendTradeRequest,
    changes: Record<string, unknown>,
  ): Promise<number> {
    const rows = await queryRows<{ amendment_version: number }>(
      this.dataSource.manager,
      `UPDATE trades SET
         target_size = COALESCE($3::numeric, target_size),
         target_spread = COALESCE($4::numeric, target_spread),
         spread_type = COALESCE($5, spread_type),
         max_slippage = COALESCE($6::numeric, max_slippage),
         size_type = COALESCE($7, size_type),
         amendment = $8::jsonb,
         amendment_version = amendment_version + 1,
         updated_at = now()
       WHERE id = $1 AND user_id = $2
         AND status = ANY($9::text[])
         AND ($3::numeric IS NULL OR $3::numeric >= filled_size)
       RETURNING amendment_version`,
      [
        trade.id,
        trade.userId,
        request.target_size ?? null,
        request.target_spread ?? null,
        request.spread_type ?? null,
        request.max_slippage ?? null,
        request.size_type ?? null,
        JSON.stringify({ ...changes, requested_at: new Date().toISOString() }),
        AMENDABLE_STATUSES,
      ],
    );
    if (rows.length > 0) {
      return rows[0].amendment_version;
    }
    const current = await this.dataSource
      .getRepository(TradeEntity)
      .findOneByOrFail({ id: trade.id });
    if (request.target_size !== undefined && new Big(request.target_size).lt(current.filledSize)) {
      throw new AppError(
        'invalid_request',
        `target_size ${request.target_size} is below filled_size ${new Big(current.filledSize).toFixed()}`,
      );
    }
    throw new AppError('trade_not_amendable', `a ${current.status} trade cannot be amended`);
  }
}
