import { sleep } from '@sts/platform';
import {
  postgresPool,
  writeAccountShares,
  type AccountRef,
  type AccountShareState,
} from '@sts/persistence';
import type { DataSource } from 'typeorm';

/**
 * How long a change waits for others before its account row is written: under
 * load the writes of many reserves become one statement (the budget service
 * wrote one statement per two reserves in the gateway bench without it).
 */
const LINGER_MS = 25;

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
    private readonly dataSource: DataSource,
    private readonly options: {
      resolve: (account: AccountRef) => Promise<AccountShareState | null>;
      onWritten: (accounts: number) => void;
      onError: (error: unknown, accounts: number) => void;
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
      await sleep(LINGER_MS);
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
        targets.map((target) => ('share' in target ? target : this.options.resolve(target))),
      );
      const written = await writeAccountShares(
        postgresPool(this.dataSource),
        states.filter((state): state is AccountShareState => state !== null),
      );
      this.options.onWritten(written);
    } catch (error) {
      this.options.onError(error, targets.length);
      if (rethrow) {
        throw error;
      }
    }
  }
}
