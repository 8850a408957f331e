import { dialectOf, type Dialect, type DialectDeps } from '../dialect';
import { LIGHTER } from './lighter-accounts';
import { LighterRest } from './lighter-rest';
import { LighterStreams } from './lighter-streams';

/**
 * Lighter's own API under `/dialects/lighter`: REST at `/api/v1/...` and the
 * WebSocket at `/stream`, over the simulator's engine (README.md in this
 * folder).
 */
export function createLighterDialect(deps: DialectDeps): Dialect {
  const rest = new LighterRest(deps);
  const streams = new LighterStreams({
    ...deps,
    accounts: rest.accounts,
    lighterOrders: rest.orders,
  });
  rest.orders.onUnplaced = (wallet, marketIndex, order) =>
    streams.orderState(wallet, marketIndex, order);
  const dialect = dialectOf(LIGHTER, (router) => rest.addRoutes(router), streams);
  return {
    ...dialect,
    close: () => {
      rest.orders.close();
      rest.cancelAll.switches.close();
      dialect.close();
    },
  };
}
