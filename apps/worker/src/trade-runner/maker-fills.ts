import Big from 'big.js';
import { fillAmount, type SizeType } from '@sts/domain';

/**
 * The maker fills a trade has seen, deduplicated by the venue's fill id (a
 * fill may arrive on the stream, in a reconnect read-back and in a
 * reconciliation), with filled_size in both size types.
 */
export class MakerFills {
  private readonly seen = new Set<string>();
  private base = new Big(0);
  private notional = new Big(0);
  private sinceAmendment = 0;

  /** False when this fill was already counted. */
  record(fillId: string, price: Big, size: Big): boolean {
    if (this.seen.has(fillId)) {
      return false;
    }
    this.seen.add(fillId);
    this.base = this.base.plus(size);
    this.notional = this.notional.plus(fillAmount('notional', price, size));
    this.sinceAmendment += 1;
    return true;
  }

  /** Fills seen since the last amendment: a trade completes on a fill, not on an amendment. */
  get fillsSinceAmendment(): number {
    return this.sinceAmendment;
  }

  /** An amendment is in force: the fills before it no longer complete the trade. */
  amended(): void {
    this.sinceAmendment = 0;
  }

  /** After a start from the log or the venues: all fills so far count toward completion, or none. */
  countFromStart(allCount: boolean): void {
    this.sinceAmendment = allCount ? this.seen.size : 0;
  }

  has(fillId: string): boolean {
    return this.seen.has(fillId);
  }

  get count(): number {
    return this.seen.size;
  }

  get baseFilled(): Big {
    return this.base;
  }

  /** filled_size in the trade's size_type. */
  filled(sizeType: SizeType): Big {
    switch (sizeType) {
      case 'base':
        return this.base;
      case 'notional':
        return this.notional;
    }
  }
}
