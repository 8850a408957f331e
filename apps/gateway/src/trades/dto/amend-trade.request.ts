import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { SIZE_TYPES, SPREAD_TYPES, type SizeType, type SpreadType } from '@sts/domain';
import { Optional } from '../../validation/optional';
import { IsDecimal, IsNonNegativeDecimal, IsPositiveDecimal } from './decimal.validators';

/**
 * PATCH /api/v1/trades/{id}: at least one field; spread_type only with
 * target_spread. A null field is refused (400), never read as "no change".
 */
export class AmendTradeRequest {
  @ApiPropertyOptional({ description: 'must be >= filled_size' })
  @Optional()
  @IsPositiveDecimal()
  target_size?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsDecimal()
  target_spread?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsNonNegativeDecimal()
  max_slippage?: string;

  @ApiPropertyOptional({ enum: SIZE_TYPES })
  @Optional()
  @IsIn(SIZE_TYPES)
  size_type?: SizeType;

  @ApiPropertyOptional({ enum: SPREAD_TYPES, description: 'only together with target_spread' })
  @Optional()
  @IsIn(SPREAD_TYPES)
  spread_type?: SpreadType;
}
