import { HttpFailure } from '../api/http-kit';
import { WindowCount } from './sliding-window';

/**
 * A venue's published request limits, as its dialect enforces them: pools,
 * each a row of `docs/venues/rate-limits.md` (H1, A1, P4, …), counting the
 * weight of the requests it covers in a sliding window. The sliding window is
 * the strictest reading of "N per minute": over ANY window of `windowMs` the
 * admitted weight never exceeds the capacity, so a client safe here is safe
 * under a venue that counts fixed windows or refills a token bucket.
 */

/**
 * `ip`: per source address, every request from it whichever account sent it
 * (all the accounts behind one egress address share the pool; another
 * address has a pool of its own). `account`: per account id; a request that
 * names no account is counted under its source address's key (Lighter's L1
 * is "IP and L1 address": only an authenticated request gets the address's
 * own budget).
 */
export type PoolScope = 'ip' | 'account';

/** The key a source address's requests are counted under (`ip:127.0.0.2`). */
export const ipKey = (source: string): string => `ip:${source}`;

/** What a request of a kind weighs: a number, or a rule on its batch length. */
export type Weight = number | { readonly of: (batch: number) => number; readonly text: string };

export interface PoolSpec {
  /** The row of docs/venues/rate-limits.md it stands for; unique within the venue. */
  readonly id: string;
  readonly scope: PoolScope;
  readonly windowMs: number;
  readonly capacity: number;
  /** The weight of each request kind it counts; kinds not listed are not counted by it. */
  readonly weights: Readonly<Record<string, Weight>>;
}

/** A venue's pools as it publishes them. */
export interface PublishedTable {
  readonly venue: string;
  readonly pools: readonly PoolSpec[];
}

/** A request as the pools see it: its kind (a key of the pools' weights) and its batch length. */
export interface LimitedRequest {
  readonly kind: string;
  readonly batch?: number;
  /** What the read-out counts it under (`by_kind`) when its kind is a catch-all: its own name. */
  readonly label?: string;
}

/**
 * A test's change to the published numbers; each PUT replaces the previous
 * one (`{}` is the venue's own table again).
 */
export interface LimitAdjustment {
  /** Multiplies every pool's published capacity (rounded down, at least 1). */
  readonly scale?: number;
  /** Every pool's window instead of the published one. */
  readonly windowMs?: number;
  /** Per pool id, over `scale` and `windowMs`. */
  readonly pools?: Readonly<Record<string, { capacity?: number; windowMs?: number }>>;
}

/** A pool as it is enforced now (its spec with any adjustment). */
export interface PoolInForce {
  readonly id: string;
  readonly scope: PoolScope;
  readonly windowMs: number;
  readonly capacity: number;
}

/** A request refused by a pool: 429 `rate_limited`, which each dialect answers in its venue's words. */
export class OverPublishedLimit extends HttpFailure {
  constructor(
    readonly pool: PoolInForce,
    readonly retryAfterMs: number,
  ) {
    super(
      429,
      'rate_limited',
      `over ${pool.capacity} weight per ${pool.windowMs} ms (${pool.id})`,
      { pool: pool.id, retry_after_ms: retryAfterMs },
    );
  }
}

/** What one key of a pool admitted and refused (the control read-out). */
export interface KeyCounts {
  /** `ip:<source address>`, or the account id. */
  key: string;
  /** In the window ending now. */
  window_weight: number;
  /** The most admitted inside any one window (never above the capacity in force then). */
  max_window_weight: number;
  admitted_weight: number;
  refused: number;
  /** Admitted weight by request kind, and refused requests by kind. */
  by_kind: Record<string, { admitted_weight: number; refused: number }>;
}

/** A pool in the control read-out: the numbers in force and published, its weights, each key's counts. */
export interface PoolReport {
  id: string;
  scope: PoolScope;
  window_ms: number;
  capacity: number;
  published: { window_ms: number; capacity: number };
  /** A kind's weight, or its rule on the batch length. */
  weights: Record<string, number | string>;
  /** Each key the pool counted, in the order it first did. */
  keys: KeyCounts[];
}

export interface LimitsReport {
  venue: string;
  pools: PoolReport[];
}

/** One pool: its published spec, the numbers in force, and a count per key. */
class Pool {
  inForce: PoolInForce;
  readonly counts = new Map<string, WindowCount>();

  constructor(readonly spec: PoolSpec) {
    this.inForce = pick(spec);
  }

  weightOf(request: LimitedRequest): number | undefined {
    const weight = this.spec.weights[request.kind];
    if (weight === undefined) {
      return undefined;
    }
    return typeof weight === 'number' ? weight : weight.of(request.batch ?? 1);
  }

  keyOf(source: string, accountId: string | undefined): string {
    return this.spec.scope === 'ip' ? ipKey(source) : (accountId ?? ipKey(source));
  }

  count(key: string, nowMs: number): WindowCount {
    let count = this.counts.get(key);
    if (!count) {
      count = new WindowCount();
      this.counts.set(key, count);
    }
    count.prune(nowMs, Math.max(this.inForce.windowMs, this.spec.windowMs));
    return count;
  }
}

const pick = ({ id, scope, windowMs, capacity }: PoolSpec): PoolInForce => ({
  id,
  scope,
  windowMs,
  capacity,
});

/**
 * One venue's pools and their counts: the one owner of what its dialect
 * admitted. A request is admitted by every pool that weighs its kind, or by
 * none: one pool over its capacity refuses it (counted as refused there) and
 * no pool admits its weight (a refused request uses no budget: Hyperliquid's
 * rate-limit page, the one venue that says).
 */
export class PublishedLimits {
  private readonly pools: Pool[];

  constructor(
    readonly table: PublishedTable,
    private readonly now: () => number = Date.now,
  ) {
    this.pools = table.pools.map((spec) => new Pool(spec));
  }

  /**
   * Admits a request from `source` (its sender's address, `sourceAddress`),
   * of `accountId` where the venue knows it, or throws OverPublishedLimit.
   */
  admit(request: LimitedRequest, source: string, accountId?: string): void {
    const nowMs = this.now();
    const charges = this.pools.flatMap((pool) => {
      const weight = pool.weightOf(request);
      return weight === undefined
        ? []
        : [{ pool, weight, count: pool.count(pool.keyOf(source, accountId), nowMs) }];
    });
    const over = charges.filter(
      ({ pool, weight, count }) =>
        count.weightIn(nowMs, pool.inForce.windowMs) + weight > pool.inForce.capacity,
    );
    if (over.length === 0) {
      for (const { pool, weight, count } of charges) {
        count.admit(weight, nowMs, pool.inForce.windowMs, request.label ?? request.kind);
      }
      return;
    }
    for (const { count } of over) {
      count.refuse(request.label ?? request.kind);
    }
    const waits = over.map(({ pool, weight, count }) =>
      count.retryAfterMs(weight, pool.inForce.capacity, nowMs, pool.inForce.windowMs),
    );
    throw new OverPublishedLimit(over[0].pool.inForce, Math.max(...waits));
  }

  /** The pool as enforced now. */
  pool(id: string): PoolInForce {
    return this.find(id).inForce;
  }

  /** The weight a key of a pool admitted in the window ending now (Aster's used-weight headers). */
  windowWeight(id: string, source: string, accountId?: string): number {
    const pool = this.find(id);
    const nowMs = this.now();
    const count = pool.counts.get(pool.keyOf(source, accountId));
    return count?.weightIn(nowMs, pool.inForce.windowMs) ?? 0;
  }

  /** Replaces any earlier adjustment; throws RangeError on an unknown pool or a bad number. */
  adjust(adjustment: LimitAdjustment): void {
    const { scale = 1, windowMs, pools = {} } = adjustment;
    for (const id of Object.keys(pools)) {
      this.find(id);
    }
    positive(scale, 'scale');
    const inForce = this.pools.map((pool): PoolInForce => {
      const own = pools[pool.spec.id] ?? {};
      return {
        ...pick(pool.spec),
        capacity: positive(
          own.capacity ?? Math.max(1, Math.floor(pool.spec.capacity * scale)),
          'capacity',
        ),
        windowMs: positive(own.windowMs ?? windowMs ?? pool.spec.windowMs, 'window_ms'),
      };
    });
    this.pools.forEach((pool, i) => {
      pool.inForce = inForce[i];
    });
  }

  clearCounts(): void {
    for (const pool of this.pools) {
      pool.counts.clear();
    }
  }

  /** Every pool: the numbers in force and published, the weights, and each key's counts. */
  report(): LimitsReport {
    const nowMs = this.now();
    return {
      venue: this.table.venue,
      pools: this.pools.map((pool): PoolReport => ({
        id: pool.spec.id,
        scope: pool.spec.scope,
        window_ms: pool.inForce.windowMs,
        capacity: pool.inForce.capacity,
        published: { window_ms: pool.spec.windowMs, capacity: pool.spec.capacity },
        weights: Object.fromEntries(
          Object.entries(pool.spec.weights).map(([kind, w]) => [
            kind,
            typeof w === 'number' ? w : w.text,
          ]),
        ),
        keys: [...pool.counts].map(([key, count]): KeyCounts => ({
          key,
          window_weight: count.weightIn(nowMs, pool.inForce.windowMs),
          max_window_weight: count.maxWindowWeight,
          admitted_weight: count.admittedWeight,
          refused: count.refused,
          by_kind: byKind(count),
        })),
      })),
    };
  }

  private find(id: string): Pool {
    const pool = this.pools.find((candidate) => candidate.spec.id === id);
    if (!pool) {
      throw new RangeError(`${this.table.venue} has no pool ${id}`);
    }
    return pool;
  }
}

function positive(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number`);
  }
  return value;
}

/** A key's admitted weight and refusals per request kind, for the read-out. */
function byKind(count: WindowCount): KeyCounts['by_kind'] {
  const kinds = new Set([...count.admittedByKind.keys(), ...count.refusedByKind.keys()]);
  return Object.fromEntries(
    [...kinds].sort().map((kind) => [
      kind,
      {
        admitted_weight: count.admittedByKind.get(kind) ?? 0,
        refused: count.refusedByKind.get(kind) ?? 0,
      },
    ]),
  );
}
