export type Side = 'buy' | 'sell';

/** An order resting in the book, in integer ticks and lots. */
export interface RestingOrder {
  readonly orderId: string;
  /** Account id, or one of the simulator's own participants (`house`, `flow`). */
  readonly owner: string;
  readonly side: Side;
  readonly priceTicks: number;
  remainingLots: number;
}

export interface PriceLevel {
  readonly priceTicks: number;
  /** Time priority: the head fills first. */
  readonly orders: RestingOrder[];
  totalLots: number;
}

/** [priceTicks, totalLots]; 0 lots means the level is gone. */
export type LevelChange = [number, number];

export interface BookDelta {
  bids: LevelChange[];
  asks: LevelChange[];
}

/** One side of the book: levels by price, prices kept sorted best first. */
export class BookSide {
  private readonly levels = new Map<number, PriceLevel>();
  private readonly prices: number[] = [];
  readonly changed = new Set<number>();

  constructor(readonly side: Side) {}

  /** True when `a` is a better price than `b` on this side. */
  better(a: number, b: number): boolean {
    return this.side === 'buy' ? a > b : a < b;
  }

  best(): PriceLevel | undefined {
    return this.prices.length > 0 ? this.levels.get(this.prices[0]) : undefined;
  }

  level(priceTicks: number): PriceLevel | undefined {
    return this.levels.get(priceTicks);
  }

  /** Levels best first, up to `depth`. */
  top(depth: number): PriceLevel[] {
    return this.prices.slice(0, depth).map((price) => this.levels.get(price) as PriceLevel);
  }

  get depth(): number {
    return this.prices.length;
  }

  append(order: RestingOrder): void {
    let level = this.levels.get(order.priceTicks);
    if (!level) {
      level = { priceTicks: order.priceTicks, orders: [], totalLots: 0 };
      this.levels.set(order.priceTicks, level);
      this.prices.splice(this.insertionIndex(order.priceTicks), 0, order.priceTicks);
    }
    level.orders.push(order);
    level.totalLots += order.remainingLots;
    this.changed.add(order.priceTicks);
  }

  /** Takes `lots` off a resting order (a fill or a size reduction); drops it at zero. */
  reduce(order: RestingOrder, lots: number): void {
    const level = this.levels.get(order.priceTicks);
    if (!level) {
      throw new Error(`no level at ${order.priceTicks}`);
    }
    order.remainingLots -= lots;
    level.totalLots -= lots;
    if (order.remainingLots === 0) {
      this.removeFrom(level, order);
    }
    this.changed.add(order.priceTicks);
  }

  remove(order: RestingOrder): void {
    const level = this.levels.get(order.priceTicks);
    if (!level) {
      return;
    }
    level.totalLots -= order.remainingLots;
    this.removeFrom(level, order);
    this.changed.add(order.priceTicks);
  }

  /** The changed levels since the last call, as the book shows them now. */
  drainChanges(): LevelChange[] {
    const changes: LevelChange[] = [];
    for (const price of this.changed) {
      changes.push([price, this.levels.get(price)?.totalLots ?? 0]);
    }
    this.changed.clear();
    return changes;
  }

  private removeFrom(level: PriceLevel, order: RestingOrder): void {
    const index = level.orders.indexOf(order);
    if (index >= 0) {
      level.orders.splice(index, 1);
    }
    if (level.orders.length === 0) {
      this.levels.delete(level.priceTicks);
      this.prices.splice(this.prices.indexOf(level.priceTicks), 1);
    }
  }

  private insertionIndex(price: number): number {
    let low = 0;
    let high = this.prices.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.better(this.prices[mid], price)) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}

/** A limit order book on integer ticks and lots with a sequence number per published change. */
export class OrderBook {
  readonly bids = new BookSide('buy');
  readonly asks = new BookSide('sell');
  private readonly byId = new Map<string, RestingOrder>();
  seq = 0;

  sideOf(side: Side): BookSide {
    return side === 'buy' ? this.bids : this.asks;
  }

  opposite(side: Side): BookSide {
    return side === 'buy' ? this.asks : this.bids;
  }

  get(orderId: string): RestingOrder | undefined {
    return this.byId.get(orderId);
  }

  rest(order: RestingOrder): void {
    this.byId.set(order.orderId, order);
    this.sideOf(order.side).append(order);
  }

  cancel(orderId: string): RestingOrder | undefined {
    const order = this.byId.get(orderId);
    if (!order) {
      return undefined;
    }
    this.byId.delete(orderId);
    this.sideOf(order.side).remove(order);
    return order;
  }

  /** Fills `lots` of a resting order; forgets it once fully filled. */
  fill(order: RestingOrder, lots: number): void {
    this.sideOf(order.side).reduce(order, lots);
    if (order.remainingLots === 0) {
      this.byId.delete(order.orderId);
    }
  }

  /** The changes since the last call as one delta with the next sequence number, or null. */
  drainDelta(): (BookDelta & { seq: number }) | null {
    const bids = this.bids.drainChanges();
    const asks = this.asks.drainChanges();
    if (bids.length === 0 && asks.length === 0) {
      return null;
    }
    this.seq += 1;
    return { seq: this.seq, bids, asks };
  }
}
