import type { EntityManager } from 'typeorm';
import { KILL_SWITCH_SCOPE } from '@sts/domain';
import { KILL_SWITCH } from './entities';
import { queryRows } from './query-rows';

/** An operator switch that is on: a maintenance scope (`_system`, a venue) or `_kill_switch`. */
export interface SwitchInForce {
  exchange: string;
  reason: string;
  updated_by: string;
  updated_at: Date;
}

/**
 * The operator switches on now, in one statement: every maintenance row
 * enabled, and the kill switch as `_kill_switch` when it is on.
 */
export function switchesInForce(manager: EntityManager): Promise<SwitchInForce[]> {
  return queryRows<SwitchInForce>(
    manager,
    `SELECT exchange, reason, updated_by, updated_at FROM maintenance WHERE enabled
     UNION ALL
     SELECT $1, reason, updated_by, updated_at FROM system_flags WHERE name = $2 AND enabled
     ORDER BY exchange`,
    [KILL_SWITCH_SCOPE, KILL_SWITCH],
  );
}
