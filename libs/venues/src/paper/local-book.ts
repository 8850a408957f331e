import Big from 'big.js';
import { compare, signOf } from '@sts/domain';
import type { BookLevel, BookUpdate } from '../model/book';
import type { WireLevel } from './protocol';

interface Level {
  price: Big;
  priceText: string;
  size: string;
}

/** One side of a local book, best first; prices compared as decimals, never floats. */
class LocalSide {
  private readonly levels: Level[] = [];

  constructor(private readonly bids: boolean) {}

  reset(levels: WireLevel[]): void {
    this.levels.length = 0;
    for (const level of levels) {
      this.apply(level);
    }
  }

  apply([priceText, size]: WireLevel): void {
    const price = new Big(priceText);
    const { index, found } = this.find(price);
    const removing = signOf(new Big(size)) === 0;
    if (found && removing) {
      this.levels.splice(index, 1);
    } else if (found) {
      this.levels[index].size = size;
    } else if (!removing) {
      this.levels.splice(index, 0, { price, priceText, size });
    }
  }

  private find(price: Big): { index: number; found: boolean } {
    let low = 0;
    let high = this.levels.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      const cmp = compare(this.levels[mid].price, price);
      if (cmp === 0) {
        return { index: mid, found: true };
      }
      if (this.bids ? cmp > 0 : cmp < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return { index: low, found: false };
  }

  top(depth: number): BookLevel[] {
    return this.levels
      .slice(0, depth)
      .map((level) => ({ price: level.priceText, size: level.size }));
  }

  best(): string | null {
    return this.levels[0]?.priceText ?? null;
  }
}

/**
 * A market's book rebuilt from the venue's snapshot and sequenced deltas. A
 * delta that does not follow the last sequence number means something was
 * lost: `apply` says so and the caller resubscribes for a fresh snapshot.
 */
export class LocalBook {
  private readonly bids = new LocalSide(true);
  private readonly asks = new LocalSide(false);
  seq = -1;

  constructor(
    readonly exchange: string,
    readonly symbol: string,
    readonly market: string,
    private readonly depth: number,
  ) {}

  snapshot(seq: number, bids: WireLevel[], asks: WireLevel[]): void {
    this.bids.reset(bids);
    this.asks.reset(asks);
    this.seq = seq;
  }

  /** 'applied', 'stale' (already seen) or 'gap' (resync needed). */
  delta(seq: number, bids: WireLevel[], asks: WireLevel[]): 'applied' | 'stale' | 'gap' {
    if (this.seq < 0 || seq > this.seq + 1) {
      return 'gap';
    }
    if (seq <= this.seq) {
      return 'stale';
    }
    for (const level of bids) {
      this.bids.apply(level);
    }
    for (const level of asks) {
      this.asks.apply(level);
    }
    this.seq = seq;
    return 'applied';
  }

  view(timestampMs: number): BookUpdate {
    return {
      exchange: this.exchange,
      symbol: this.symbol,
      market: this.market,
      seq: this.seq,
      bestBid: this.bids.best(),
      bestAsk: this.asks.best(),
      bids: this.bids.top(this.depth),
      asks: this.asks.top(this.depth),
      timestampMs,
    };
  }
}
