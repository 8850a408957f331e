import Big from 'big.js';
import { compare, decimalKey, decimalTextSign, signOf } from '@sts/domain';
import type { BookLevel, BookUpdate } from '../model/book';
import type { WireLevel } from './protocol';

interface Level {
  /** `decimalKey` of the price: NaN when only a Big can compare it. */
  key: number;
  priceText: string;
  size: string;
}

/**
 * One side of a local book, best first. Prices are compared as decimals,
 * never as floats: by their exact keys (`decimalKey`), so an update parses
 * nothing into Big, or as Bigs when one has no key.
 */
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
    const key = decimalKey(priceText);
    const at = this.find(key, priceText);
    const removing = isZero(size);
    if (at >= 0 && removing) {
      this.levels.splice(at, 1);
    } else if (at >= 0) {
      this.levels[at].size = size;
    } else if (!removing) {
      this.levels.splice(-at - 1, 0, { key, priceText, size });
    }
  }

  /** The level's index when the price is there, else `-(index it goes at) - 1`. */
  private find(key: number, priceText: string): number {
    let low = 0;
    let high = this.levels.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      const cmp = comparePrices(this.levels[mid], key, priceText);
      if (cmp === 0) {
        return mid;
      }
      if (this.bids ? cmp > 0 : cmp < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return -low - 1;
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

/** A level's price against another, by keys when both have one. */
function comparePrices(level: Level, key: number, priceText: string): number {
  if (Number.isNaN(level.key) || Number.isNaN(key)) {
    return compare(new Big(level.priceText), new Big(priceText));
  }
  return level.key < key ? -1 : level.key > key ? 1 : 0;
}

/** A size of zero removes its level. */
function isZero(size: string): boolean {
  return (decimalTextSign(size) ?? signOf(new Big(size))) === 0;
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
