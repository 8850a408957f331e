import {
  encodeEnvelope,
  envelope,
  MAINTENANCE_CHANGED,
  maintenanceChangedSubject,
} from '@sts/contracts';
import { isVenueId, KILL_SWITCH_SCOPE, SYSTEM_SCOPE } from '@sts/domain';
import { KILL_SWITCH, MaintenanceEntity, SystemFlagEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';
import type { OpsContext } from '../ops-context';

const parseOnOff = (value: string): boolean => {
  if (value !== 'on' && value !== 'off') {
    throw new AppError('invalid_request', 'state must be on or off');
  }
  return value === 'on';
};

async function announce(
  context: OpsContext,
  exchange: string,
  row: MaintenanceEntity | SystemFlagEntity,
) {
  const published = await context.publish(
    maintenanceChangedSubject(context.settings.natsPrefix),
    encodeEnvelope(
      envelope(MAINTENANCE_CHANGED, {
        exchange,
        enabled: row.enabled,
        reason: row.reason,
        updated_by: row.updatedBy,
        updated_at: row.updatedAt.toISOString(),
      }),
    ),
  );
  return published;
}

export async function setMaintenance(
  context: OpsContext,
  exchange: string,
  state: string,
  reason = '',
) {
  if (exchange !== SYSTEM_SCOPE && !isVenueId(exchange)) {
    throw new AppError(
      'unknown_exchange',
      `unknown exchange ${exchange} (use a venue id or _system)`,
    );
  }
  const enabled = parseOnOff(state);
  const db = await context.db();
  const row = await db.transaction(async (manager) => {
    const entry = {
      exchange,
      enabled,
      reason,
      updatedBy: context.operatorId,
      updatedAt: new Date(),
    };
    await manager.getRepository(MaintenanceEntity).upsert(entry, ['exchange']);
    await context.audit(manager, 'maintenance.set', exchange, { enabled, reason });
    return manager.getRepository(MaintenanceEntity).findOneByOrFail({ exchange });
  });
  const published = await announce(context, exchange, row);
  return {
    exchange: row.exchange,
    enabled: row.enabled,
    reason: row.reason,
    updated_by: row.updatedBy,
    updated_at: row.updatedAt.toISOString(),
    published,
  };
}

export async function setKillSwitch(context: OpsContext, state: string, reason = '') {
  const enabled = parseOnOff(state);
  const db = await context.db();
  const row = await db.transaction(async (manager) => {
    const flag = {
      name: KILL_SWITCH,
      enabled,
      reason,
      updatedBy: context.operatorId,
      updatedAt: new Date(),
    };
    await manager.getRepository(SystemFlagEntity).upsert(flag, ['name']);
    await context.audit(manager, 'kill-switch.set', KILL_SWITCH, { enabled, reason });
    return manager.getRepository(SystemFlagEntity).findOneByOrFail({ name: KILL_SWITCH });
  });
  const published = await announce(context, KILL_SWITCH_SCOPE, row);
  return {
    kill_switch: row.enabled,
    reason: row.reason,
    updated_by: row.updatedBy,
    updated_at: row.updatedAt.toISOString(),
    published,
  };
}
