import { Module } from '@nestjs/common';
import { MaintenanceController } from './maintenance.controller';
import { MaintenanceReader } from './maintenance.reader';

@Module({
  controllers: [MaintenanceController],
  providers: [MaintenanceReader],
  exports: [MaintenanceReader],
})
export class MaintenanceModule {}
