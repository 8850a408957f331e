import type { Pool } from 'pg';

/** An account's share of its rate limit, as of one version of the budget store. */
export interface AccountShareState {
  venue: string;
  wallet: string;
  share: number;
  version: number;
}

/** An account whose state the writer reads from the budget store when it writes. */
export type AccountRef = Pick<AccountShareState, 'venue' | 'wallet'>;

/**
 * Writes accounts' shares, any number in one statement: one row per account
 * (`budget_account_shares`), which the `trade_budgets` view and the reads'
 * joins show as the budgets of the account's live trades. A state older than
 * the one written changes nothing (two writers, two changes, out of order);
 * one of the same version is written again (the sweep's rewrite). Returns how
 * many accounts were written.
 */
export async function writeAccountShares(pool: Pool, states: AccountShareState[]): Promise<number> {
  // One row per account in a statement (ON CONFLICT cannot touch a row twice): the newest. In
  // one order, so two writers of the same accounts never wait on each other crosswise.
  const newest = new Map<string, AccountShareState>();
  for (const state of states) {
    const key = `${state.venue}:${state.wallet}`;
    const held = newest.get(key);
    if (!held || held.version <= state.version) {
      newest.set(key, state);
    }
  }
  if (newest.size === 0) {
    return 0;
  }
  const rows = [...newest.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
  const written = await pool.query({
    name: 'budget-account-shares.write',
    text: `INSERT INTO budget_account_shares AS s (venue, wallet, share, version)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[])
       ON CONFLICT (venue, wallet) DO UPDATE
         SET share = EXCLUDED.share, version = EXCLUDED.version, updated_at = now()
         WHERE s.version <= EXCLUDED.version`,
    values: [
      rows.map((row) => row.venue),
      rows.map((row) => row.wallet),
      rows.map((row) => row.share),
      rows.map((row) => row.version),
    ],
  });
  return written.rowCount ?? 0;
}
