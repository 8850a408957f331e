import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsUUID, Matches, Max, Min } from 'class-validator';
import { TRADE_STATUSES } from '@sts/domain';
import { Optional } from '../../validation/optional';
import { TRADE_LIST_LIMIT } from '../trade.queries';

/** The most trades one page of GET /trades holds (decisions section 8). */
export const TRADE_PAGE_MAX = 200;

const STATUS = `(${TRADE_STATUSES.join('|')})`;
const STATUS_LIST = new RegExp(`^${STATUS}(,${STATUS})*$`);

/** GET /api/v1/trades: with none of these, the interface's 50 newest of every status. */
export class ListTradesQuery {
  @ApiPropertyOptional({
    description:
      'only trades in these statuses, comma-separated (live ones: `pending,validating,active,paused,recovering`)',
    example: 'active,paused',
  })
  @Optional()
  @Matches(STATUS_LIST, { message: `status must be trade statuses, comma-separated` })
  status?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: TRADE_PAGE_MAX, default: TRADE_LIST_LIMIT })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(TRADE_PAGE_MAX)
  limit?: number;

  @ApiPropertyOptional({
    description:
      'only trades created before this trade of yours (the next page: the last trade_id of the previous one)',
    format: 'uuid',
  })
  @Optional()
  @IsUUID()
  before?: string;
}
