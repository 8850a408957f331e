import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, MaxLength } from 'class-validator';
import { Optional } from '../validation/optional';
import { RESULT_GROUPS, type ResultGroupBy } from './results-report';

/** GET /api/v1/results: a window of the caller's results and how to group them. */
export class ResultsQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'start of the window (ISO 8601, inclusive), by each fill’s and settlement’s venue time; default: 30 days before `to`',
    example: '2026-01-01T00:00:00Z',
  })
  @Optional()
  @MaxLength(40)
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'end of the window (ISO 8601, exclusive); default: now',
    example: '2026-02-01T00:00:00Z',
  })
  @Optional()
  @MaxLength(40)
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;

  @ApiPropertyOptional({
    enum: RESULT_GROUPS,
    default: 'day',
    description:
      'day: the UTC date; week: the UTC date of the ISO week’s Monday; market: the trade’s market; venue: the fill’s or settlement’s venue',
  })
  @Optional()
  @IsIn(RESULT_GROUPS, { message: `group_by must be one of ${RESULT_GROUPS.join(', ')}` })
  group_by?: ResultGroupBy;
}
