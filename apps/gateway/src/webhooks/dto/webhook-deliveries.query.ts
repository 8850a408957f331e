import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNumberString, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../../validation/optional';

/** Deliveries one page holds when `limit` is not given, and at most. */
export const DELIVERIES_PAGE_DEFAULT = 50;
export const DELIVERIES_PAGE_MAX = 200;

/** GET /api/v1/webhooks/{id}/deliveries: a page of an endpoint's deliveries, newest first. */
export class WebhookDeliveriesQuery {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: DELIVERIES_PAGE_MAX,
    default: DELIVERIES_PAGE_DEFAULT,
  })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(DELIVERIES_PAGE_MAX)
  limit?: number;

  @ApiPropertyOptional({
    description:
      'only deliveries older than this delivery id (the next page: `next_before` of the previous one)',
    pattern: '^[0-9]{1,19}$',
    example: '1042',
  })
  @Optional()
  // Validators class-validator can describe to the OpenAPI rules are avoided here: `before` of
  // GET /trades (a UUID) shares the parameter name; the pattern above says what these check.
  @IsNumberString({ no_symbols: true }, { message: 'before must be a delivery id (digits)' })
  @MaxLength(19, { message: 'before must be a delivery id (digits)' })
  before?: string;
}
