import type { Dialect, DialectDeps } from '../dialect';
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
  return {
    venue: LIGHTER,
    addRoutes: (router) => rest.addRoutes(router),
    handleUpgrade: (request, socket, head) => streams.handleUpgrade(request, socket, head),
    drop: (accountId) => streams.drop(accountId),
    close: () => streams.close(),
    book: (_venue, symbol) => streams.book(symbol),
    order: (_venue, order) => streams.order(order),
    fill: (_venue, fill) => streams.fill(fill),
  };
}
