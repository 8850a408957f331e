import type { Pool } from 'pg';
import { sleep } from '@sts/platform';

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

/**
 * How long a change waits for others before its account row is written: under
 * load the writes of many reserves become one statement (the budget service
 * wrote one statement per two reserves in the gateway bench without it).
 */
export const ACCOUNT_SHARES_LINGER_MS = 25;

/** An account alone is read when written, so it is always current; of two states the later version wins. */
const newestOf = (
  queued: AccountShareState | AccountRef | undefined,
  incoming: AccountShareState | AccountRef,
): AccountShareState | AccountRef => {
  if (!queued || !('version' in incoming)) {
    return incoming;
  }
  if (!('version' in queued)) {
    return queued;
  }
  return incoming.version >= queued.version ? incoming : queued;
};

/**
 * Writes account shares in the background: one write at a time, taking every
 * account changed while the one before ran or lingered, each at its newest
 * state, in one statement. The cost is a statement per write, whatever the
 * number of accounts, changes or holders. An account given alone (no state)
 * is read through `resolve` when written.
 */
export class AccountShareWriter {
  private readonly pending = new Map<string, AccountShareState | AccountRef>();
  private writing?: Promise<void>;

  constructor(
    private readonly pool: () => Pool,
    private readonly options: {
      resolve?: (account: AccountRef) => Promise<AccountShareState | null>;
      onWritten?: (accounts: number) => void;
      onError: (error: unknown, accounts: number) => void;
      lingerMs?: number;
    },
  ) {}

  /** Queues accounts to write (a state, or an account to read when written). */
  queue(accounts: Array<AccountShareState | AccountRef>): void {
    for (const account of accounts) {
      const key = `${account.venue}:${account.wallet}`;
      this.pending.set(key, newestOf(this.pending.get(key), account));
    }
    this.start();
  }

  /** Writes the accounts now (and fails if the write failed). */
  writeNow(accounts: Array<AccountShareState | AccountRef>): Promise<void> {
    return this.write(accounts, true);
  }

  /** Waits for the writes queued so far. */
  async flush(): Promise<void> {
    await this.writing;
  }

  private start(): void {
    if (this.writing || this.pending.size === 0) {
      return;
    }
    this.writing = this.writePending().finally(() => {
      this.writing = undefined;
      this.start();
    });
  }

  private async writePending(): Promise<void> {
    while (this.pending.size > 0) {
      // Changes that arrive meanwhile join this write (a share shown up to this much later).
      await sleep(this.options.lingerMs ?? ACCOUNT_SHARES_LINGER_MS);
      const batch = [...this.pending.values()];
      this.pending.clear();
      await this.write(batch, false);
    }
  }

  private async write(
    targets: Array<AccountShareState | AccountRef>,
    rethrow: boolean,
  ): Promise<void> {
    try {
      const states = await Promise.all(
        targets.map((target) =>
          'share' in target ? target : (this.options.resolve?.(target) ?? null),
        ),
      );
      const written = await writeAccountShares(
        this.pool(),
        states.filter((state): state is AccountShareState => state !== null),
      );
      this.options.onWritten?.(written);
    } catch (error) {
      this.options.onError(error, targets.length);
      if (rethrow) {
        throw error;
      }
    }
  }
}
