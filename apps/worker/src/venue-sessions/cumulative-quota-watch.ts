import type { BudgetClient } from '@sts/budget-client';
import type { CumulativeAccountQuota } from '@sts/contracts';
import type { CumulativeQuota, VenueId } from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { CumulativeBudget, VenueClient } from '@sts/venues';

/** How a worker follows its accounts' cumulative budgets (WORKER_CUMULATIVE_*). */
export interface CumulativePolicy {
  budget: BudgetClient;
  /** How often the budget service gets this worker's spends and answers the account's budget. */
  pollMs: number;
  /** How often the venue is asked what is left (Hyperliquid: a read of weight 20). */
  readEveryMs: number;
}

/** The longest a reading of the venue serves, however much is left (drift from what nobody counted). */
const READ_AT_LEAST_EVERY_MS = 600_000;

/** What the watch needs of its session: who it is, and how a venue read is paid. */
export interface CumulativeAccount {
  venue: VenueId;
  wallet: string;
  client: VenueClient;
  /** Sends a request of the account, paid from a listening trade's budget (as the dead-man switch's). */
  paying<T>(send: () => Promise<T>): Promise<T>;
  logger: Logger;
}

/**
 * One account's cumulative request budget as this worker follows it, while
 * trades of this worker hold the account: every `pollMs` it reports to the
 * budget service the order requests it sent there since its last report,
 * with the venue's newest reading when it has one (asked every
 * `readIntervalMs()`), and keeps the account's budget as the service answers it
 * (the newest reading of every worker, the spends since). `current()` is
 * that, with this worker's spends since the answer and what the account may
 * have spent unreported meanwhile (its request limit times the poll): what a
 * trade decides by (`quotaHold`). A venue that keeps no such budget (paper)
 * reads null and reports nothing.
 */
export class CumulativeQuotaWatch {
  private kept: CumulativeAccountQuota | null = null;
  /** Spends not reported yet (a report in flight takes them). */
  private spentUnreported = 0;
  private lastReading: CumulativeBudget | null = null;
  private readingSentAtMs = -1;
  private lastReadAtMs = Number.NEGATIVE_INFINITY;
  private lastReportAtMs = Number.NEGATIVE_INFINITY;
  private timer?: NodeJS.Timeout;
  private polling = false;
  private holders = 0;

  constructor(
    private readonly account: CumulativeAccount,
    private readonly policy: CumulativePolicy,
  ) {}

  /** The account's budget as a trade decides by; null while nobody read it (or the venue keeps none). */
  current(): CumulativeQuota | null {
    const kept = this.kept;
    if (!kept) {
      return null;
    }
    return {
      left: kept.left,
      spent: kept.spent + this.spentUnreported,
      unreported: Math.ceil((kept.spend_per_s * this.policy.pollMs) / 1_000),
      hedgeHolders: kept.hedge_holders,
    };
  }

  /** The session sent `requests` order requests on the account (placements, IOCs, cancels, armings). */
  spent(requests: number): void {
    this.spentUnreported += requests;
  }

  /** A trade listens on the account: the watch runs while any does. */
  hold(): void {
    this.holders += 1;
    if (!this.timer) {
      this.timer = setInterval(() => void this.poll(), this.policy.pollMs);
      this.timer.unref();
      void this.poll();
    }
  }

  release(): void {
    this.holders = Math.max(0, this.holders - 1);
    if (this.holders === 0) {
      this.stop();
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * One poll: the venue's word when due, then the report (when there is
   * anything to report). A read is paid by `paying` (the session's: a
   * listening trade's budget; at connect, the connecting trade's).
   */
  async poll(
    paying: CumulativeAccount['paying'] = (send) => this.account.paying(send),
  ): Promise<void> {
    if (this.polling) {
      return;
    }
    this.polling = true;
    try {
      // The service's word first: another worker may have read the venue this period.
      await this.report();
      if (await this.readVenue(paying)) {
        await this.report();
      }
    } finally {
      this.polling = false;
    }
  }

  /**
   * Asks the venue when no reading of the account is fresher than
   * `readInterval()`, this worker's or another's (the service answers the
   * newest any worker reported): one read a period per account, however
   * many workers hold it (Hyperliquid weighs each 20 of the 1,200 a minute
   * every account behind one egress address shares).
   */
  private async readVenue(paying: CumulativeAccount['paying']): Promise<boolean> {
    const { client } = this.account;
    const newestReadAtMs = Math.max(this.lastReadAtMs, this.kept?.read_at_ms ?? -Infinity);
    if (!client.cumulativeBudget || Date.now() - newestReadAtMs < this.readIntervalMs()) {
      return false;
    }
    this.lastReadAtMs = Date.now();
    try {
      const reading = await paying(() => client.cumulativeBudget!());
      if (reading && (!this.lastReading || reading.atMs > this.lastReading.atMs)) {
        this.lastReading = reading;
      }
    } catch (error) {
      this.account.logger.warn(
        { venue: this.account.venue, wallet: this.account.wallet, err: error },
        "could not read the account's cumulative request budget",
      );
    }
    return true;
  }

  /**
   * How long a reading serves: `readEveryMs` near the end of the budget;
   * far from it, as long as the account would take to spend a quarter of
   * what is left at its full request rate (what nobody counted, another
   * client of the wallet, spends at most that before the next read), up to
   * READ_AT_LEAST_EVERY_MS. A fresh Hyperliquid account (10,000 requests)
   * at 20 a second is read every 125 s, not every 30 s: nine such accounts
   * on one egress spent 6 of its 20 weight a second on these reads alone.
   */
  private readIntervalMs(): number {
    const kept = this.kept;
    if (!kept || kept.spend_per_s <= 0) {
      return this.policy.readEveryMs;
    }
    const left = kept.left - kept.spent - this.spentUnreported;
    const quarterLeftMs = ((left / kept.spend_per_s) * 1_000) / 4;
    return Math.min(
      Math.max(this.policy.readEveryMs, quarterLeftMs),
      Math.max(this.policy.readEveryMs, READ_AT_LEAST_EVERY_MS),
    );
  }

  /**
   * Reports when there is a reading the service has not had, or the service
   * keeps one (spends then count), or a period passed (another worker may
   * have reported a reading since).
   */
  private async report(): Promise<void> {
    const reading =
      this.lastReading && this.lastReading.atMs > this.readingSentAtMs ? this.lastReading : null;
    const due = Date.now() - this.lastReportAtMs >= this.policy.readEveryMs;
    if (!reading && !this.kept && !due) {
      return;
    }
    const spent = this.spentUnreported;
    this.spentUnreported = 0;
    this.lastReportAtMs = Date.now();
    try {
      this.kept = await this.policy.budget.cumulative({
        venue: this.account.venue,
        wallet: this.account.wallet,
        reading: reading && { left: reading.left, read_at_ms: reading.atMs },
        spent,
      });
      if (reading) {
        this.readingSentAtMs = reading.atMs;
      }
    } catch (error) {
      // Not reported: they go with the next report, and count here meanwhile.
      this.spentUnreported += spent;
      this.account.logger.warn(
        { venue: this.account.venue, wallet: this.account.wallet, err: error },
        'could not report the cumulative request budget; keeping the last word',
      );
    }
  }
}
