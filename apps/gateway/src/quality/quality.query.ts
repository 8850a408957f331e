import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, MaxLength } from 'class-validator';
import { Optional } from '../validation/optional';
import { QUALITY_GROUPS, type QualityGroupBy } from './quality-report';

/** GET /api/v1/quality: a window of the caller's maker fills and how to group them. */
export class QualityQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'start of the window (ISO 8601, inclusive), by each maker fill’s venue time; default: 7 days before `to`',
    example: '2026-01-01T00:00:00Z',
  })
  @Optional()
  @MaxLength(40)
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'end of the window (ISO 8601, exclusive); default: now',
    example: '2026-01-08T00:00:00Z',
  })
  @Optional()
  @MaxLength(40)
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;

  @ApiPropertyOptional({
    enum: QUALITY_GROUPS,
    default: 'venue',
    description: 'venue: the maker fill’s venue; market: the trade’s market; side: buy or sell',
  })
  @Optional()
  @IsIn(QUALITY_GROUPS, { message: `group_by must be one of ${QUALITY_GROUPS.join(', ')}` })
  group_by?: QualityGroupBy;
}
