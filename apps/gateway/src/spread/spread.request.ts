import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, Matches, ValidateBy } from 'class-validator';
import {
  isDecimalString,
  MAKER_LEGS,
  SPREAD_CONDITIONS,
  SPREAD_TYPES,
  type MakerLeg,
  type SpreadCondition,
  type SpreadType,
} from '@sts/domain';
import { Optional } from '../validation/optional';
import { EXCHANGE_ID } from '../validation/path-params';

/** Canonical symbols as a create takes them. */
export const CANONICAL_MARKET = /^[A-Z0-9]{1,20}$/;

export class SpreadMarketParam {
  @ApiProperty({ example: 'BTC', description: 'canonical market symbol' })
  @Matches(CANONICAL_MARKET, { message: 'market must be a canonical symbol such as BTC' })
  market: string;
}

/** GET /api/v1/markets/{market}/spread: a trade's terms, as far as they decide the spread. */
export class SpreadQuery {
  @ApiProperty({ example: 'hyperliquid' })
  @Matches(EXCHANGE_ID, { message: 'long_exchange must be an exchange id' })
  long_exchange: string;

  @ApiProperty({ example: 'paradex' })
  @Matches(EXCHANGE_ID, { message: 'short_exchange must be an exchange id' })
  short_exchange: string;

  @ApiPropertyOptional({ enum: MAKER_LEGS, default: 'long' })
  @Optional()
  @IsIn(MAKER_LEGS)
  maker_leg?: MakerLeg;

  @ApiPropertyOptional({ enum: SPREAD_TYPES, default: 'absolute' })
  @Optional()
  @IsIn(SPREAD_TYPES)
  spread_type?: SpreadType;

  @ApiPropertyOptional({
    example: '5',
    description:
      'in units of spread_type; with spread_condition, condition_met says whether it holds',
  })
  @Optional()
  @ValidateBy({
    name: 'isDecimal',
    validator: {
      validate: (value) => isDecimalString(value),
      defaultMessage: () => 'target_spread must be a decimal as a string (e.g. "0.5")',
    },
  })
  target_spread?: string;

  @ApiPropertyOptional({ enum: SPREAD_CONDITIONS })
  @Optional()
  @IsIn(SPREAD_CONDITIONS)
  spread_condition?: SpreadCondition;
}
