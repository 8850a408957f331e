import Big from 'big.js';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import type { HlState } from './hl-state';
import * as wire from './hl-wire';

/** Fills in a `userFills` snapshot. */
const SNAPSHOT_FILLS = 2_000;

/** A subscription's identity, or undefined for one the simulated venue does not serve. */
export function subscriptionKey(subscription: unknown): string | undefined {
  if (!subscription || typeof subscription !== 'object' || Array.isArray(subscription)) {
    return undefined;
  }
  const { type, coin, user } = subscription as Record<string, unknown>;
  if (type === 'l2Book' && typeof coin === 'string') {
    return `l2Book:${coin}`;
  }
  if (
    (type === 'userFills' || type === 'orderUpdates') &&
    typeof user === 'string' &&
    /^0x[0-9a-fA-F]{40}$/.test(user)
  ) {
    return `${type}:${user.toLowerCase()}`;
  }
  return undefined;
}

/**
 * What a new subscription is sent first: the book of an `l2Book`, the last
 * fills of a `userFills` (`isSnapshot: true`, none for an unfunded user);
 * `orderUpdates` has no snapshot.
 */
export function subscriptionSnapshot(
  deps: DialectDeps & { state: HlState },
  venue: VenueEngine,
  subscription: Record<string, unknown>,
  user: string | undefined,
): { channel: string; data: unknown } | undefined {
  if (subscription['type'] === 'l2Book') {
    const market = venue.markets.get(subscription['coin'] as string);
    return market ? { channel: 'l2Book', data: wire.l2Book(market, Date.now()) } : undefined;
  }
  if (subscription['type'] === 'userFills' && user) {
    const funded = deps.funding.account('hyperliquid', user) !== undefined;
    const fills = funded
      ? venue.registry
          .fillsSince(user, 0)
          .slice(-SNAPSHOT_FILLS)
          .map((fill) =>
            wire.userFill(venue, fill, {
              startPosition: deps.state.startPositions.get(fill.fillId) ?? new Big(0),
              cloid: deps.state.fillsCarryCloid(),
            }),
          )
      : [];
    return { channel: 'userFills', data: { isSnapshot: true, user, fills } };
  }
  return undefined;
}
