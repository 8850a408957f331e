import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { EVENTS_PAGE_LIMIT } from '../trade.queries';

export class TradeEventsQuery {
  @ApiPropertyOptional({ description: 'only entries with a higher sequence (incremental polling)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  after_sequence?: number;

  @ApiPropertyOptional({ maximum: EVENTS_PAGE_LIMIT, default: EVENTS_PAGE_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(EVENTS_PAGE_LIMIT)
  limit?: number;
}
