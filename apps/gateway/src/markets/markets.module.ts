import { Module } from '@nestjs/common';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../infrastructure/tokens';
import { ListMarketsUseCase } from './list-markets.use-case';
import { MARKET_SOURCES, MARKETS_REFRESH_MS, MarketCatalog } from './market-catalog';
import { marketSourcesFor } from './market-sources';
import { MarketsController } from './markets.controller';

@Module({
  controllers: [MarketsController],
  providers: [
    MarketCatalog,
    ListMarketsUseCase,
    {
      provide: MARKET_SOURCES,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => marketSourcesFor(config),
    },
    {
      provide: MARKETS_REFRESH_MS,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => config.settings.marketsRefreshMs,
    },
  ],
  exports: [MarketCatalog],
})
export class MarketsModule {}
