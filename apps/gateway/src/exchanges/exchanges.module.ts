import { Module } from '@nestjs/common';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { ExchangesController } from './exchanges.controller';

@Module({
  imports: [MaintenanceModule],
  controllers: [ExchangesController],
})
export class ExchangesModule {}
