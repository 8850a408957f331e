import { dialectOf, type Dialect, type DialectDeps } from '../dialect';
import { EXTENDED } from './extended-orders';
import { ExtendedRest } from './extended-rest';
import { ExtendedStreams } from './extended-streams';

/**
 * Extended's own API under `/dialects/extended`: REST at `/api/v1/...` and
 * the streams at `/stream.extended.exchange/v1/...`, over the simulator's
 * engine (README.md in this folder).
 */
export function createExtendedDialect(deps: DialectDeps): Dialect {
  const rest = new ExtendedRest(deps);
  const streams = new ExtendedStreams({
    ...deps,
    accounts: rest.accounts,
    extendedOrders: rest.orders,
  });
  rest.orders.onUnplaced = (wallet, order) => streams.orderState(wallet, order);
  const dialect = dialectOf(EXTENDED, (router) => rest.addRoutes(router), streams);
  return {
    ...dialect,
    close: () => {
      rest.orders.queue.close();
      rest.deadMan.switches.close();
      dialect.close();
    },
  };
}
