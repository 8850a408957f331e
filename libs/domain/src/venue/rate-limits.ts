/**
 * What a venue request is, as far as the venue's rate limits weigh it. A
 * live client classifies every HTTP request it sends into one of these;
 * the venue registry says what each weighs in each of the venue's pools.
 * `action` is a signed write that neither places nor cancels (leverage,
 * approvals); `other`, anything else, priced as the venue's dearest read.
 */
export const REQUEST_KINDS = [
  'place',
  'cancel',
  'dead_man',
  'action',
  'order_read',
  'open_orders',
  'order_history',
  'fills',
  'account',
  'nonce',
  'book',
  'markets',
  'auth',
  'other',
] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

export const isRequestKind = (value: unknown): value is RequestKind =>
  typeof value === 'string' && (REQUEST_KINDS as readonly string[]).includes(value);

/**
 * One of a venue's published limits: `capacity` weight in any `windowS`
 * seconds, counted per account or per IP (every account of the fleet's
 * egress shares an IP pool). A kind absent from `weights` is not counted by it.
 */
export interface RateLimitPool {
  /** The limit's row in docs/venues/rate-limits.md (`H1`, `P5`, …). */
  id: string;
  scope: 'ip' | 'account';
  windowS: number;
  capacity: number;
  weights: Readonly<Partial<Record<RequestKind, number>>>;
}

/**
 * A venue's published limits as the budget spends them: one token bucket per
 * trade, each request costing `costs[kind]` tokens, so that any mix of
 * requests within `accountPerS` tokens a second per account and `ipPerS` per
 * IP keeps every pool under its capacity.
 */
export interface BudgetTerms {
  costs: Readonly<Record<RequestKind, number>>;
  /** Tokens a second all trades on one account may spend together. */
  accountPerS: number;
  /** Tokens a second all trades on the venue may spend together; null: no IP pool. */
  ipPerS: number | null;
}

/**
 * Share of each published capacity the budget spends: a token bucket can
 * run a burst past a window's average, and a request sent at a window's
 * edge may be counted in the next; this keeps the sum under the limit.
 */
export const RATE_LIMIT_HEADROOM = 0.9;

const ratePerS = (pool: RateLimitPool): number =>
  (pool.capacity * RATE_LIMIT_HEADROOM) / pool.windowS;

/**
 * Turns a venue's pools into budget terms. A token is what a placement costs
 * in the pool that binds it hardest; every other kind costs the whole tokens
 * that cover its dearest pool (`ceil(tokenRate × weight / poolRate)`), so any
 * mix of kinds spending N tokens a second spends at most each pool's rate
 * when N is that pool's token limit (`poolRate × min(cost / weight)`). The
 * derivation is conservative: a pool never sees more than its capacity,
 * though a mix of kinds may leave some of it unused.
 */
export function budgetTermsOf(pools: readonly RateLimitPool[]): BudgetTerms {
  const placing = pools.filter((pool) => (pool.weights.place ?? 0) > 0);
  if (placing.length === 0) {
    throw new Error('no pool counts placements: the budget has no unit');
  }
  const tokenPerS = Math.min(...placing.map((pool) => ratePerS(pool) / pool.weights.place!));
  const costs = {} as Record<RequestKind, number>;
  for (const kind of REQUEST_KINDS) {
    const dearest = Math.max(0, ...pools.map((pool) => (pool.weights[kind] ?? 0) / ratePerS(pool)));
    costs[kind] = Math.max(1, Math.ceil(tokenPerS * dearest - 1e-9));
  }
  const scoped = (scope: RateLimitPool['scope']): number | null => {
    const limits = pools.filter((pool) => pool.scope === scope).map((pool) => limitOf(pool, costs));
    return limits.length > 0 ? Math.min(...limits) : null;
  };
  const ipPerS = scoped('ip');
  const accountPerS = Math.min(scoped('account') ?? Infinity, ipPerS ?? Infinity);
  return { costs, accountPerS, ipPerS };
}

/** The tokens a second `pool` admits, whatever mix of the kinds it counts they are spent on. */
function limitOf(pool: RateLimitPool, costs: Readonly<Record<RequestKind, number>>): number {
  const counted = REQUEST_KINDS.filter((kind) => (pool.weights[kind] ?? 0) > 0);
  return Math.floor(
    ratePerS(pool) * Math.min(...counted.map((kind) => costs[kind] / pool.weights[kind]!)) + 1e-9,
  );
}

/** A window this short or shorter is counted a second at a time: a debt is not waited out inside it. */
const SECOND_WINDOW_S = 1;

/** What a venue's configuration says of its limits (VenueConfig's fields of the same names). */
export interface VenueLimits {
  rateLimits: readonly RateLimitPool[];
  /** Tokens a second the service may spend on one account. */
  rateLimitPerS: number;
  requestCosts: Readonly<Record<RequestKind, number>>;
}

/**
 * Whether a request of `kind` sent on credit (paid after it went, as a debt)
 * must be paid from rate kept back, because a limit counted a second at a
 * time could see it on top of a second of paid requests. A debt slows only
 * the requests after it: inside a minute's window they make it up, inside a
 * second's they may not. So rate is kept back where the account's share is
 * bound per second: on a paper venue (a flat limit a second), where the
 * operator's `rate_limit_per_s` binds below the published limits (it caps
 * the tokens of every second), or where a published pool of a second that
 * counts `kind` would not hold the account's whole share plus one such
 * request from each trade the share may be divided among (1 token each).
 * Paradex's fills read (P5s: 120 a second, 324 tokens) never needs it; its
 * binding pool, P6, is counted a minute at a time.
 */
export function creditNeedsKeptRate(venue: VenueLimits, kind: RequestKind): boolean {
  if (venue.rateLimits.length === 0) {
    return true;
  }
  if (venue.rateLimitPerS < budgetTermsOf(venue.rateLimits).accountPerS) {
    return true;
  }
  const share = venue.rateLimitPerS;
  const worst = share + share * venue.requestCosts[kind];
  return venue.rateLimits.some(
    (pool) =>
      pool.windowS <= SECOND_WINDOW_S &&
      (pool.weights[kind] ?? 0) > 0 &&
      limitOf(pool, venue.requestCosts) < worst,
  );
}

/** Every kind costing one token: the paper venue's flat per-second limit. */
export const FLAT_REQUEST_COSTS: Readonly<Record<RequestKind, number>> = Object.freeze(
  Object.fromEntries(REQUEST_KINDS.map((kind) => [kind, 1])) as Record<RequestKind, number>,
);
