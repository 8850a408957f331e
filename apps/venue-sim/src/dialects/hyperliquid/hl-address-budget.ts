import type Big from 'big.js';
import { HlActionError } from './hl-errors';

/**
 * Hyperliquid's address-based limits (docs/venues/rate-limits.md §1, H5-H7,
 * from the venue's "Rate limits and user limits" page): each address may
 * send 10,000 requests plus one per USDC it has traded, cumulatively, never
 * reset; a batch of n orders or cancels is n requests. Over it, one request
 * gets through every 10 s (H6); cancels may go on to `min(limit + 100,000,
 * limit × 2)` (H7). A refused request uses nothing and does not restart the
 * 10 s (a third-party probe's finding, unverified). The refusal's text is
 * the one ccxt 4.5.84 quotes and maps to RateLimitExceeded (unverified on
 * the venue's own pages).
 */
export const ADDRESS_BUDGET = {
  initialRequests: 10_000,
  slowEveryMs: 10_000,
  cancelExtra: 100_000,
};

export const addressBudgetText = (used: number, cap: number, volume: Big): string =>
  `Too many cumulative requests sent (${used} > ${cap}) for cumulative volume traded $${volume.toFixed(2)}. Place taker orders to free up 1 request per USDC traded.`;

/** Each address's cumulative requests against its budget. */
export class HlAddressBudget {
  private initial = ADDRESS_BUDGET.initialRequests;
  private readonly used = new Map<string, number>();
  private readonly lastSlowMs = new Map<string, number>();

  constructor(private readonly volumeOf: (user: string) => Big) {}

  /** A test's setting: the requests every address starts with (the venue's 10,000 by default). */
  setInitial(requests: number): void {
    this.initial = requests;
  }

  /**
   * `userRateLimit` (docs `info-endpoint` "Query user rate limits"; the shape
   * of nktkas's `UserRateLimitResponse`): the address's traded volume, the
   * requests it used and its cap (10,000 + 1 per USDC traded). The simulated
   * venue sells no extra capacity (`reserveRequestWeight`): no surplus.
   */
  status(user: string): {
    cumVlm: string;
    nRequestsUsed: number;
    nRequestsCap: number;
    nRequestsSurplus: number;
  } {
    const key = user.toLowerCase();
    const volume = this.volumeOf(key);
    return {
      cumVlm: volume.toFixed(6),
      nRequestsUsed: this.used.get(key) ?? 0,
      nRequestsCap: this.initial + Math.floor(volume.toNumber()),
      nRequestsSurplus: 0,
    };
  }

  /** Counts an action of `requests` (its batch length), or throws the venue's refusal. */
  admit(user: string, requests: number, cancels: boolean, nowMs: number): void {
    const key = user.toLowerCase();
    const volume = this.volumeOf(key);
    const limit = this.initial + Math.floor(volume.toNumber());
    const cap = cancels ? Math.min(limit + ADDRESS_BUDGET.cancelExtra, limit * 2) : limit;
    const used = (this.used.get(key) ?? 0) + requests;
    if (used > cap) {
      const last = this.lastSlowMs.get(key);
      if (last !== undefined && nowMs - last < ADDRESS_BUDGET.slowEveryMs) {
        throw new HlActionError(addressBudgetText(used, cap, volume));
      }
      this.lastSlowMs.set(key, nowMs);
    }
    this.used.set(key, used);
  }
}

/** How many requests an action is for the address budget: its batch's length, else one. */
export function addressRequestsOf(action: Record<string, unknown>): {
  requests: number;
  cancels: boolean;
} {
  const batch = [action['orders'], action['cancels'], action['modifies']].find(Array.isArray);
  const cancels = action['type'] === 'cancel' || action['type'] === 'cancelByCloid';
  return { requests: batch ? Math.max(1, (batch as unknown[]).length) : 1, cancels };
}
