import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@sts/auth';
import { ReadSpreadUseCase, type SpreadView } from './read-spread.use-case';
import { SpreadMarketParam, SpreadQuery } from './spread.request';

@ApiTags('markets')
@Controller('api/v1/markets')
export class SpreadController {
  constructor(private readonly readSpread: ReadSpreadUseCase) {}

  @Public()
  @Get(':market/spread')
  @ApiOperation({
    summary: "The spread a trade's terms would see now, and whether its condition holds",
  })
  spread(@Param() params: SpreadMarketParam, @Query() query: SpreadQuery): Promise<SpreadView> {
    return this.readSpread.execute({
      market: params.market,
      longExchange: query.long_exchange,
      shortExchange: query.short_exchange,
      makerLeg: query.maker_leg ?? 'long',
      spreadType: query.spread_type ?? 'absolute',
      target:
        query.target_spread !== undefined && query.spread_condition !== undefined
          ? { spread: query.target_spread, condition: query.spread_condition }
          : undefined,
    });
  }
}
