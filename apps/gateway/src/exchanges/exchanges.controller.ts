import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@sts/auth';
import { VENUE_IDS } from '@sts/domain';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../infrastructure/tokens';
import { MaintenanceReader } from '../maintenance/maintenance.reader';
import { presentExchanges, type ExchangeView } from './exchange.presenter';

@ApiTags('exchanges')
@Controller('api/v1/exchanges')
export class ExchangesController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly maintenance: MaintenanceReader,
  ) {}

  @Public()
  @Get()
  @ApiOperation({
    summary: 'The venues of this deployment: paper or live, maker caps, maintenance',
    description:
      'A `live` venue trades real money on the venue itself; `paper` runs on the simulator.',
  })
  async list(): Promise<ExchangeView[]> {
    const venues = VENUE_IDS.map((id) => this.config.venues[id]);
    return presentExchanges(venues, await this.maintenance.state());
  }
}
