import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Min } from 'class-validator';

export class MarketsQuery {
  @ApiProperty({ example: 'hyperliquid,paradex', description: 'comma-separated exchange ids' })
  @Matches(/^[a-z0-9_]+(,[a-z0-9_]+)*$/, {
    message: 'exchanges must be a comma-separated list of exchange ids',
  })
  exchanges: string;

  @ApiPropertyOptional({ description: 'at least N of the listed exchanges; omitted: all of them' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  min_exchanges?: number;
}
