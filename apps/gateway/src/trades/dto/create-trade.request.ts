import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsInt, IsNumber, Matches, Max, Min } from 'class-validator';
import {
  EXECUTION_TYPES,
  FAST_MOVE_GUARD_MODES,
  FAST_MOVE_SETTLE_MS,
  FAST_MOVE_WINDOW_MS,
  MAKER_LEGS,
  MAX_FAST_MOVE_GUARD_BPS,
  PUBLIC_QUOTE_MODES,
  SIZE_TYPES,
  SPREAD_CONDITIONS,
  SPREAD_TYPES,
  type ExecutionType,
  type FastMoveGuardMode,
  type MakerLeg,
  type SizeType,
  type SpreadCondition,
  type SpreadType,
} from '@sts/domain';
import { Optional } from '../../validation/optional';
import { EXCHANGE_ID, WALLET_ADDRESS } from '../../validation/path-params';
import { IsDecimal, IsNonNegativeDecimal, IsPositiveDecimal } from './decimal.validators';

const WALLET = WALLET_ADDRESS;
const EXCHANGE = EXCHANGE_ID;

/** POST /api/v1/trades. Every field of interface.md; an unknown field is a 400. */
export class CreateTradeRequest {
  @ApiProperty({ example: 'BTC', description: 'canonical market symbol' })
  @Matches(/^[A-Z0-9]{1,20}$/, { message: 'market must be a canonical symbol such as BTC' })
  market: string;

  @ApiProperty({ example: 'hyperliquid' })
  @Matches(EXCHANGE, { message: 'long_exchange must be an exchange id' })
  long_exchange: string;

  @ApiProperty()
  @Matches(WALLET, { message: 'long_wallet must be a 0x-prefixed wallet address' })
  long_wallet: string;

  @ApiProperty({ example: 'paradex' })
  @Matches(EXCHANGE, { message: 'short_exchange must be an exchange id' })
  short_exchange: string;

  @ApiProperty()
  @Matches(WALLET, { message: 'short_wallet must be a 0x-prefixed wallet address' })
  short_wallet: string;

  @ApiProperty({ example: '5', description: 'in units of spread_type' })
  @IsDecimal()
  target_spread: string;

  @ApiProperty({ enum: SPREAD_CONDITIONS })
  @IsIn(SPREAD_CONDITIONS)
  spread_condition: SpreadCondition;

  @ApiProperty({ example: '0.5', description: 'positive decimal, in units of size_type' })
  @IsPositiveDecimal()
  target_size: string;

  @ApiProperty({ enum: EXECUTION_TYPES })
  @IsIn(EXECUTION_TYPES)
  execution_type: ExecutionType;

  @ApiProperty({ enum: MAKER_LEGS })
  @IsIn(MAKER_LEGS)
  maker_leg: MakerLeg;

  @ApiProperty({ example: '0.001', description: 'fraction of price: 0.001 = 0.1 %' })
  @IsNonNegativeDecimal()
  max_slippage: string;

  @ApiPropertyOptional({ enum: SIZE_TYPES, default: 'base' })
  @Optional()
  @IsIn(SIZE_TYPES)
  size_type?: SizeType;

  @ApiPropertyOptional({ enum: SPREAD_TYPES, default: 'absolute' })
  @Optional()
  @IsIn(SPREAD_TYPES)
  spread_type?: SpreadType;

  /**
   * Any JSON value is let through body validation on purpose: resolveIdempotencyKey
   * answers a missing, null or malformed key with the idempotency codes of decisions section 4.
   */
  @ApiPropertyOptional({
    description: 'X-Idempotency-Key takes precedence',
    pattern: '^[a-zA-Z0-9_-]{1,128}$',
  })
  @Allow()
  idempotency_key?: unknown;

  @ApiPropertyOptional({ enum: PUBLIC_QUOTE_MODES })
  @Optional()
  @IsIn(PUBLIC_QUOTE_MODES)
  quote_mode?: 'aggressive';

  @ApiPropertyOptional({ description: 'bounds the aggressive peg; same units as target_spread' })
  @Optional()
  @IsDecimal()
  worst_spread?: string;

  @ApiPropertyOptional({ enum: FAST_MOVE_GUARD_MODES })
  @Optional()
  @IsIn(FAST_MOVE_GUARD_MODES)
  fast_move_guard?: FastMoveGuardMode;

  // OpenAPI 3.1 (JSON Schema 2020-12): exclusiveMinimum is the bound itself, no longer a flag.
  @ApiPropertyOptional({
    exclusiveMinimum: 0 as unknown as boolean,
    maximum: MAX_FAST_MOVE_GUARD_BPS,
  })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(Number.MIN_VALUE, { message: 'fast_move_guard_bps must be greater than 0' })
  @Max(MAX_FAST_MOVE_GUARD_BPS)
  fast_move_guard_bps?: number;

  @ApiPropertyOptional({ minimum: FAST_MOVE_WINDOW_MS.min, maximum: FAST_MOVE_WINDOW_MS.max })
  @Optional()
  @IsInt()
  @Min(FAST_MOVE_WINDOW_MS.min)
  @Max(FAST_MOVE_WINDOW_MS.max)
  fast_move_window_ms?: number;

  @ApiPropertyOptional({ minimum: FAST_MOVE_SETTLE_MS.min, maximum: FAST_MOVE_SETTLE_MS.max })
  @Optional()
  @IsInt()
  @Min(FAST_MOVE_SETTLE_MS.min)
  @Max(FAST_MOVE_SETTLE_MS.max)
  fast_move_settle_ms?: number;
}
