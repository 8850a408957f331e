import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SYSTEM_SCOPE, VENUE_IDS } from '@sts/domain';
import { KILL_SWITCH, MaintenanceEntity, SystemFlagEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';
import { ChangeFeed } from '../infrastructure/change-feed';

const ORDER = [SYSTEM_SCOPE, ...VENUE_IDS];

interface Switches {
  killSwitch: SystemFlagEntity | null;
  maintenance: MaintenanceEntity[];
}

/**
 * Reads the operators' switches. An operator's flip must hold on the very
 * next request (decisions section 7), so the switches are served from memory
 * only after a ChangeFeed fence (every flip committed before the request
 * arrived has been heard); otherwise, and after any flip, they are read again.
 */
@Injectable()
export class MaintenanceReader {
  private cached: Switches | null = null;
  private generation = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly changes: ChangeFeed,
  ) {
    changes.subscribe((change) => {
      if (change !== 'reset' && change.table !== 'maintenance' && change.table !== 'system_flags') {
        return;
      }
      this.generation += 1;
      this.cached = null;
    });
  }

  /** `changeMark`: ChangeFeed.mark() taken when the request arrived, else now. */
  async list(changeMark?: number): Promise<MaintenanceEntity[]> {
    return (await this.switches(changeMark)).maintenance;
  }

  /** The maintenance rows and whether the kill switch is on, from one read. */
  async state(changeMark?: number): Promise<{ rows: MaintenanceEntity[]; killSwitch: boolean }> {
    const { killSwitch, maintenance } = await this.switches(changeMark);
    return { rows: maintenance, killSwitch: killSwitch?.enabled === true };
  }

  /** Throws the 503 of validations 3 and 2 (kill switch, then system, then each exchange). */
  async assertTradingAllowed(exchanges: readonly string[], changeMark?: number): Promise<void> {
    const { killSwitch, maintenance } = await this.switches(changeMark);
    if (killSwitch?.enabled) {
      throw new AppError('kill_switch', 'trading is halted: the global kill switch is active', {
        reason: killSwitch.reason,
      });
    }
    this.assertOpen(maintenance, exchanges);
  }

  async assertNotInMaintenance(exchanges: readonly string[], changeMark?: number): Promise<void> {
    this.assertOpen(await this.list(changeMark), exchanges);
  }

  private assertOpen(rows: MaintenanceEntity[], exchanges: readonly string[]): void {
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

  private async switches(changeMark?: number): Promise<Switches> {
    if (this.cached && (await this.changes.fence(changeMark))) {
      // Read again after the fence: it may have brought a flip.
      const fresh = this.cached as Switches | null;
      if (fresh) {
        return fresh;
      }
    }
    const generation = this.generation;
    const listening = this.changes.isListening;
    const [killSwitch, rows] = await Promise.all([
      this.dataSource.getRepository(SystemFlagEntity).findOneBy({ name: KILL_SWITCH }),
      this.dataSource.getRepository(MaintenanceEntity).find(),
    ]);
    const switches = {
      killSwitch,
      maintenance: rows
        .filter((row) => ORDER.includes(row.exchange))
        .sort((a, b) => ORDER.indexOf(a.exchange) - ORDER.indexOf(b.exchange)),
    };
    if (listening && generation === this.generation) {
      this.cached = switches;
    }
    return switches;
  }
}
