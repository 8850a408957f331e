import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Matches, Max, Min } from 'class-validator';
import { Optional } from '../validation/optional';

export class MarketsQuery {
  @ApiProperty({ example: 'hyperliquid,paradex', description: 'comma-separated exchange ids' })
  @Matches(/^[a-z0-9_]+(,[a-z0-9_]+)*$/, {
    message: 'exchanges must be a comma-separated list of exchange ids',
  })
  exchanges: string;

  @ApiPropertyOptional({ description: 'at least N of the listed exchanges; omitted: all of them' })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  min_exchanges?: number;
}
