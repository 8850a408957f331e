import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@sts/auth';
import { MaintenanceReader } from './maintenance.reader';
import { presentMaintenance, type MaintenanceEntryView } from './maintenance.presenter';

@ApiTags('maintenance')
@Controller('api/v1/maintenance')
export class MaintenanceController {
  constructor(private readonly maintenance: MaintenanceReader) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'Maintenance flags: `_system` and one entry per exchange' })
  @ApiOkResponse({ description: 'Poll every 30 to 60 seconds for a UI indicator' })
  async list(): Promise<MaintenanceEntryView[]> {
    return (await this.maintenance.list()).map(presentMaintenance);
  }
}
