import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { Optional } from '../../validation/optional';
import { EVENTS_PAGE_LIMIT } from '../trade.queries';

/** trade_events.sequence is a Postgres integer: a larger cursor is refused, not sent to the database. */
export const MAX_SEQUENCE = 2_147_483_647;

export class TradeEventsQuery {
  @ApiPropertyOptional({
    description:
      'only entries with a higher sequence (incremental polling; a page answered `has_more` continues from its `next_after_sequence`)',
  })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_SEQUENCE)
  after_sequence?: number;

  @ApiPropertyOptional({ maximum: EVENTS_PAGE_LIMIT, default: EVENTS_PAGE_LIMIT })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(EVENTS_PAGE_LIMIT)
  limit?: number;
}
