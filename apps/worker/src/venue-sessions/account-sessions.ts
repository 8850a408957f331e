import type { TokenBucket } from '@sts/budget-client';
import type { VenueId } from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { StoredVenueCredential } from '@sts/venues';
import { AccountSession } from './account-session';
import type { CumulativePolicy } from './cumulative-quota-watch';
import type { DeadManPolicy, DeadManStatus } from './dead-man-keeper';
import type { VenueClientFactory } from './venue-client-factory';

/** A trade's hold on a shared session; `release` once the trade no longer needs it. */
export interface AccountSessionHandle {
  session: AccountSession;
  release(): void;
}

interface Entry {
  session: AccountSession;
  holders: number;
  closeTimer?: NodeJS.Timeout;
}

/** How long an unused session stays open, so a trade that follows another reuses its socket. */
const IDLE_CLOSE_MS = 30_000;

/** The worker's venue account sessions, one per (venue, wallet), shared and reference counted. */
export class AccountSessions {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly factory: VenueClientFactory,
    private readonly logger: Logger,
    /** How every account's dead-man switch is kept (WORKER_DEAD_MAN_TIMEOUT_MS). */
    private readonly deadMan: DeadManPolicy = { timeoutMs: 15_000 },
    /** How the accounts' cumulative budgets are followed (WORKER_CUMULATIVE_*), by venue; none: not followed. */
    private readonly cumulative: (venue: VenueId) => CumulativePolicy | undefined = () => undefined,
    /** How long an account's order request waits for others to batch with (WORKER_ORDER_BATCH_MS). */
    private readonly orderBatchMs = -1,
    /** Whether a trade keeps rate back for the fill reads sent unpaid, by venue. */
    private readonly keepRateForUnpaidReads: (venue: VenueId) => boolean = () => true,
  ) {}

  /**
   * Opens (or joins) the session and waits until its stream is live; what
   * opening it spends of the account's limit is paid from `bucket`.
   */
  async acquire(
    venue: VenueId,
    credentials: StoredVenueCredential,
    bucket?: TokenBucket,
  ): Promise<AccountSessionHandle> {
    const key = `${venue}\u0000${credentials.wallet}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = {
        session: new AccountSession(
          venue,
          credentials.wallet,
          () => this.factory.create(venue, credentials),
          this.logger,
          this.deadMan,
          this.cumulative(venue),
          this.orderBatchMs,
          this.keepRateForUnpaidReads(venue),
        ),
        holders: 0,
      };
      this.entries.set(key, entry);
    }
    const held = entry;
    held.holders += 1;
    if (held.closeTimer) {
      clearTimeout(held.closeTimer);
      held.closeTimer = undefined;
    }
    let released = false;
    const release = (): void => {
      if (released) {
        return;
      }
      released = true;
      held.holders -= 1;
      if (held.holders > 0) {
        return;
      }
      held.closeTimer = setTimeout(() => {
        if (held.holders > 0 || this.entries.get(key) !== held) {
          return;
        }
        this.entries.delete(key);
        void held.session.close();
      }, IDLE_CLOSE_MS);
      held.closeTimer.unref();
    };
    try {
      await held.session.connect(bucket);
    } catch (error) {
      release();
      throw error;
    }
    return { session: held.session, release };
  }

  /** Each open account's dead-man switch as this worker keeps it (the metrics read it when scraped). */
  deadManStatuses(): Array<{ venue: VenueId; status: DeadManStatus }> {
    return [...this.entries.values()].flatMap(({ session }) => {
      const status = session.deadManStatus;
      return status ? [{ venue: session.venue, status }] : [];
    });
  }

  get size(): number {
    return this.entries.size;
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.entries.values()];
    this.entries.clear();
    for (const entry of sessions) {
      if (entry.closeTimer) {
        clearTimeout(entry.closeTimer);
      }
    }
    await Promise.all(sessions.map((entry) => entry.session.close().catch(() => undefined)));
  }
}
