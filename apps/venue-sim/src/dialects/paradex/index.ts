import { dialectOf, type Dialect, type DialectDeps } from '../dialect';
import { PARADEX, ParadexRest } from './paradex-rest';
import { ParadexStreams } from './paradex-streams';

/**
 * Paradex's own API under `/dialects/paradex`: REST at `/v1/...` and the
 * JSON-RPC WebSocket at `/v1`, over the simulator's engine (README.md in this
 * folder).
 */
export function createParadexDialect(deps: DialectDeps): Dialect {
  const rest = new ParadexRest(deps);
  const streams = new ParadexStreams({
    ...deps,
    auth: rest.auth,
    notesOf: (order) => rest.orders.notesOf(order),
  });
  rest.orders.onUnplaced = (account, market, order) => streams.orderState(account, market, order);
  // Paradex streams no fills: its order updates carry them (ParadexStreams has no fill).
  const dialect = dialectOf(PARADEX, (router) => rest.addRoutes(router), streams);
  return {
    ...dialect,
    book: (...change) => {
      dialect.book(...change);
      // A book change (the world moving, a trade) lets queued cancels act once it is over.
      rest.orders.cancels.soon();
    },
    order: (venue, order) => {
      // Each state, for the order history when it lags (`history_lag`).
      rest.orders.recordState(order);
      dialect.order(venue, order);
    },
    close: () => {
      rest.orders.close();
      dialect.close();
    },
  };
}
