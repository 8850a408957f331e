import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@sts/auth';
import { ListMarketsUseCase, type MarketView } from './list-markets.use-case';
import { MarketsQuery } from './markets.request';

@ApiTags('markets')
@Controller('api/v1/markets')
export class MarketsController {
  constructor(private readonly listMarkets: ListMarketsUseCase) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'Market universes of the given exchanges (intersection by default)' })
  list(@Query() query: MarketsQuery): Promise<{ markets: MarketView[] }> {
    return this.listMarkets.execute(query.exchanges, query.min_exchanges);
  }
}
