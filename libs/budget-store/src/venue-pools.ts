/**
 * A venue's accounts on one egress address share the venue's per-IP limit: a
 * pool, named `<venue>@<egress>` in the store's keys and in venue-share.lua.
 * A state written before egresses existed counted a venue's accounts in one
 * pool named by the venue alone; the sweep moves them (rebalance.lua).
 */
export const poolOf = (account: { venue: string; egress: string }): string =>
  `${account.venue}@${account.egress}`;

/** The egress of a pool's name; null for a venue's former pool (no egress in its name). */
export function egressOfPool(pool: string): string | null {
  const at = pool.indexOf('@');
  return at < 0 ? null : pool.slice(at + 1);
}
