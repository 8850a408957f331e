/**
 * The Postgres LISTEN/NOTIFY channel on which triggers announce committed
 * changes to cached rows (migration ChangeNotices1763700400000). Payloads:
 * `api_keys:<prefix>`, `api_keys` (every key: a TRUNCATE), `maintenance`,
 * `system_flags`, `risk_limits` (RiskLimits1763700900000).
 */
export const CHANGE_NOTICES_CHANNEL = 'sts_cached_changes';

export type ChangeNotice =
  /** `prefix` null: every key. */
  | { table: 'api_keys'; prefix: string | null }
  | { table: 'maintenance' }
  | { table: 'system_flags' }
  | { table: 'risk_limits' };

/** The notice a payload names, or null for a payload this version does not know. */
export function parseChangeNotice(payload: string): ChangeNotice | null {
  if (payload === 'maintenance' || payload === 'system_flags' || payload === 'risk_limits') {
    return { table: payload };
  }
  if (payload === 'api_keys') {
    return { table: 'api_keys', prefix: null };
  }
  if (payload.startsWith('api_keys:')) {
    return { table: 'api_keys', prefix: payload.slice('api_keys:'.length) };
  }
  return null;
}
