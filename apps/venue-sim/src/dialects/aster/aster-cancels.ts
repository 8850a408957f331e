import type { CancelCommand, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { engineTarget } from './aster-client-ids';
import { AsterError } from './aster-errors';

/**
 * One cancel on the engine, as `DELETE order` and each element of `DELETE
 * batchOrders` make it: the order named by id or by client id (the latest
 * carrying it), in the symbol the request names; an order of another symbol
 * is as unknown as a missing one (-2011). Runs inside the order path's engine
 * step; throws the engine's refusal (a closed order) for the caller to word.
 */
export function cancelOnEngine(
  venue: VenueEngine,
  accountId: string,
  symbol: string,
  target: CancelCommand,
): EngineOrder {
  const engine = engineTarget(venue, accountId, target);
  const known = venue.desk.find(accountId, engine);
  if (known.symbol !== symbol) {
    throw new AsterError('unknownOrderSent');
  }
  return venue.desk.cancel(accountId, engine);
}
