import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { SIZE_TYPES, SPREAD_TYPES, type SizeType, type SpreadType } from '@sts/domain';
import { IsDecimal, IsNonNegativeDecimal, IsPositiveDecimal } from './decimal.validators';

/** PATCH /api/v1/trades/{id}: at least one field; spread_type only with target_spread. */
export class AmendTradeRequest {
  @ApiPropertyOptional({ description: 'must be >= filled_size' })
  @IsOptional()
  @IsPositiveDecimal()
  target_size?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsDecimal()
  target_spread?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsNonNegativeDecimal()
  max_slippage?: string;

  @ApiPropertyOptional({ enum: SIZE_TYPES })
  @IsOptional()
  @IsIn(SIZE_TYPES)
  size_type?: SizeType;

  @ApiPropertyOptional({ enum: SPREAD_TYPES, description: 'only together with target_spread' })
  @IsOptional()
  @IsIn(SPREAD_TYPES)
  spread_type?: SpreadType;
}
