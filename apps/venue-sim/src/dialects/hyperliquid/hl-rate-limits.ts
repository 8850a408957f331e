import type { LimitedRequest, PublishedTable } from '../published-limits';
import { HYPERLIQUID } from './hl-wire';

/**
 * Hyperliquid's published REST limit (docs/venues/rate-limits.md §1, from the
 * venue's "Rate limits and user limits" page): H1, 1200 weight a minute per
 * IP over every `/info` and `/exchange` request. An action weighs
 * `1 + floor(batch length / 40)`; `/info` reads weigh 2 (l2Book, allMids,
 * clearinghouseState, orderStatus, spotClearinghouseState, exchangeStatus),
 * 60 (userRole) or 20 (every other documented read). The extra weight per 20
 * items a fills answer returns is not modelled (the page gives no number).
 *
 * Not modelled: the address budget (H5: 10,000 actions plus one per USDC
 * traded, then one every 10 s), the WebSocket limits (H2-H4) and the open
 * order cap (H8).
 */
export const HL_RATE_LIMITS: PublishedTable = {
  venue: HYPERLIQUID,
  pools: [
    {
      id: 'H1',
      scope: 'ip',
      windowMs: 60_000,
      capacity: 1200,
      weights: {
        exchange: { of: (batch) => 1 + Math.floor(batch / 40), text: '1 + floor(batch / 40)' },
        l2Book: 2,
        allMids: 2,
        clearinghouseState: 2,
        orderStatus: 2,
        spotClearinghouseState: 2,
        exchangeStatus: 2,
        userRole: 60,
        info: 20,
      },
    },
  ],
};

const INFO_KINDS = new Set(
  Object.keys(HL_RATE_LIMITS.pools[0].weights).filter((kind) => kind !== 'exchange'),
);

/** An `/info` body as H1 weighs it: by its `type`; any other (or none) weighs 20. */
export function hlInfoRequest(body: unknown): LimitedRequest {
  const type = (body as { type?: unknown } | undefined)?.type;
  if (typeof type === 'string' && INFO_KINDS.has(type)) {
    return { kind: type };
  }
  return typeof type === 'string' ? { kind: 'info', label: `info:${type}` } : { kind: 'info' };
}

/** An `/exchange` body as H1 weighs it: its batch is the orders, cancels or modifies it carries. */
export function hlExchangeRequest(body: unknown): LimitedRequest {
  const action = (body as { action?: Record<string, unknown> } | undefined)?.action ?? {};
  const batch = [action['orders'], action['cancels'], action['modifies']].find(Array.isArray);
  return { kind: 'exchange', batch: batch ? (batch as unknown[]).length : 1 };
}
