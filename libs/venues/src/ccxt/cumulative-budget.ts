import type { CumulativeBudget } from '../venue-client';
import type { CcxtExchangeLike } from './ccxt-exchange-like';

/**
 * "When rate limited, an address is allowed one request every 10 seconds"
 * (hyperliquid-docs, Rate limits and user limits); Lighter gives one free
 * transaction every 15 s once the volume quota is spent (its "Volume Quota"
 * page).
 */
const SPENT_PACE_MS: Readonly<Record<string, number>> = { hyperliquid: 10_000, lighter: 15_000 };

/** Lighter's refusal once the quota and the free transaction are gone (code 23000). */
const QUOTA_SPENT_TEXT = /Not enough volume quota/;

type Reader = () => Promise<CumulativeBudget | null>;

/** The live venues that keep a cumulative request budget an account can spend. */
export const CUMULATIVE_BUDGET_VENUES: ReadonlySet<string> = new Set(['hyperliquid', 'lighter']);

/**
 * How a ccxt client learns what is left of its account's cumulative budget,
 * where the venue keeps one; undefined elsewhere.
 *
 * - Hyperliquid tells it on request: `POST /info {type: "userRateLimit",
 *   user}` (weight 20 of the per-IP limit) answers `nRequestsUsed` and
 *   `nRequestsCap` (10,000 + 1 per USDC traded); left = cap - used.
 * - Lighter publishes no read of it: every `sendTx` that spent quota answers
 *   `volume_quota_remaining` (lighter-python `RespSendTx`), and a refusal
 *   for want of it says "Not enough volume quota". The client keeps the last
 *   such answer its instance received (its orders, cancels-all, the
 *   dead-man switch's armings): reading costs nothing, and is null until
 *   one came. A free transaction's answer tells nothing.
 */
export function cumulativeBudgetReader(
  venue: string,
  exchange: CcxtExchangeLike,
): Reader | undefined {
  switch (venue) {
    case 'hyperliquid':
      return () => readHyperliquid(exchange);
    case 'lighter':
      return watchLighterAnswers(exchange);
    default:
      return undefined;
  }
}

async function readHyperliquid(exchange: CcxtExchangeLike): Promise<CumulativeBudget | null> {
  const instance = exchange as CcxtExchangeLike & {
    walletAddress?: string;
    publicPostInfo(request: Record<string, unknown>): Promise<Record<string, unknown>>;
  };
  if (!instance.walletAddress) {
    return null;
  }
  const answer = await instance.publicPostInfo({
    type: 'userRateLimit',
    user: instance.walletAddress,
  });
  const used = Number(answer['nRequestsUsed']);
  const cap = Number(answer['nRequestsCap']) + Number(answer['nRequestsSurplus'] ?? 0);
  if (!Number.isFinite(used) || !Number.isFinite(cap)) {
    return null;
  }
  return { left: cap - used, atMs: Date.now(), spentPaceMs: SPENT_PACE_MS['hyperliquid']! };
}

/** Watches the instance's `sendTx` answers (ccxt's `fetch` gives the parsed body) for the quota. */
function watchLighterAnswers(exchange: CcxtExchangeLike): Reader {
  let last: CumulativeBudget | null = null;
  const told = (left: number): void => {
    last = { left, atMs: Date.now(), spentPaceMs: SPENT_PACE_MS['lighter']! };
  };
  const sender = exchange as unknown as { fetch?(...args: unknown[]): Promise<unknown> };
  if (typeof sender.fetch !== 'function') {
    // An instance that sends nothing itself (a stand-in): no answer ever tells the quota.
    return () => Promise.resolve(null);
  }
  const send = sender.fetch.bind(exchange);
  sender.fetch = async (...args: unknown[]) => {
    const url = String(args[0]);
    if (!url.includes('/sendTx')) {
      return send(...args);
    }
    try {
      const answer = await send(...args);
      const left = (answer as { volume_quota_remaining?: unknown } | null)?.volume_quota_remaining;
      if (typeof left === 'number' && Number.isFinite(left)) {
        told(left);
      }
      return answer;
    } catch (error) {
      if (error instanceof Error && QUOTA_SPENT_TEXT.test(error.message)) {
        told(0);
      }
      throw error;
    }
  };
  return () => Promise.resolve(last);
}
