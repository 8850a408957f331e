import {
  applyToBuckets,
  DEFAULT_BUCKET_WINDOW_MS,
  TokenBucket,
  type BudgetClient,
  type TradeBudgetWatch,
} from '@sts/budget-client';
import type { BudgetReleaseReason } from '@sts/contracts';
import type { Logger } from '@sts/platform';

/**
 * A grown share is another trade's released one, possibly spent in the
 * venue's current second: it applies one window later. Paced under one
 * request a second (a share of a venue's per-IP limit, counted a minute at a
 * time), a leg holds two tokens, so a re-quote's cancel and placement go
 * together.
 */
const BUCKET_OPTIONS = { growthDelayMs: DEFAULT_BUCKET_WINDOW_MS, slowBurst: 2 };

/**
 * A trade's request budgets as token buckets: the maker bucket meters every
 * request on the maker account (quotes, cancels, reads); the hedge bucket,
 * present only when the hedge venue shares its account limit, meters hedges.
 * The two accounts differ, so a hedge never waits behind a re-quote. Shares
 * follow the budget service live.
 */
export class TradeBudget {
  readonly maker: TokenBucket;
  readonly hedge: TokenBucket | null;
  private watch?: TradeBudgetWatch;

  constructor(
    private readonly tradeId: string,
    rateBudget: number,
    hedgeRateBudget: number | null,
    private readonly client: BudgetClient | null,
    private readonly logger: Logger,
  ) {
    this.maker = new TokenBucket(Math.max(0, Math.floor(rateBudget)), BUCKET_OPTIONS);
    this.hedge =
      hedgeRateBudget === null
        ? null
        : new TokenBucket(Math.max(0, Math.floor(hedgeRateBudget)), BUCKET_OPTIONS);
  }

  /** Follows the budget service's shares for this trade. */
  follow(): void {
    if (!this.client || this.watch) {
      return;
    }
    this.watch = this.client.watchTrade(
      this.tradeId,
      applyToBuckets({ maker: this.maker, ...(this.hedge ? { hedge: this.hedge } : {}) }),
    );
  }

  /** Gives the shares back (terminal status); failures are left to the budget sweeper. */
  async release(reason: BudgetReleaseReason): Promise<void> {
    if (!this.client) {
      return;
    }
    await this.client
      .release(this.tradeId, reason)
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'budget release failed; the budget sweeper will free it'),
      );
  }

  close(reason: string): void {
    this.watch?.close();
    this.watch = undefined;
    this.maker.close(reason);
    this.hedge?.close(reason);
  }
}
