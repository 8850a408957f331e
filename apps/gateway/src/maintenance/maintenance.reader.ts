import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SYSTEM_SCOPE, VENUE_IDS } from '@sts/domain';
import { KILL_SWITCH, MaintenanceEntity, SystemFlagEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';

const ORDER = [SYSTEM_SCOPE, ...VENUE_IDS];

/**
 * Reads the operators' switches. Not cached: an operator's flip must hold on
 * the very next request (decisions section 7).
 */
@Injectable()
export class MaintenanceReader {
  constructor(private readonly dataSource: DataSource) {}

  async list(): Promise<MaintenanceEntity[]> {
    const rows = await this.dataSource.getRepository(MaintenanceEntity).find();
    return rows
      .filter((row) => ORDER.includes(row.exchange))
      .sort((a, b) => ORDER.indexOf(a.exchange) - ORDER.indexOf(b.exchange));
  }

  /** Throws the 503 of validations 3 and 2 (kill switch, then system, then each exchange). */
  async assertTradingAllowed(exchanges: readonly string[]): Promise<void> {
    const killSwitch = await this.dataSource
      .getRepository(SystemFlagEntity)
      .findOneBy({ name: KILL_SWITCH });
    if (killSwitch?.enabled) {
      throw new AppError('kill_switch', 'trading is halted: the global kill switch is active', {
        reason: killSwitch.reason,
      });
    }
    await this.assertNotInMaintenance(exchanges);
  }

  async assertNotInMaintenance(exchanges: readonly string[]): Promise<void> {
    const rows = await this.list();
    const system = rows.find((row) => row.exchange === SYSTEM_SCOPE);
    if (system?.enabled) {
      throw new AppError('system_maintenance', 'the system is in maintenance mode', {
        reason: system.reason,
      });
    }
    for (const exchange of exchanges) {
      const row = rows.find((entry) => entry.exchange === exchange);
      if (row?.enabled) {
        throw new AppError('exchange_maintenance', `${exchange} is in maintenance mode`, {
          reason: row.reason,
        });
      }
    }
  }
}
