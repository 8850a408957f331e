import type { Dialect, DialectDeps } from '../dialect';
import { ASTER, AsterRest } from './aster-rest';
import { AsterStreams } from './aster-streams';
import { ListenKeys } from './listen-keys';

export type { LoggedRequest } from './request-log';

/** The aster dialect with its request log (what every private request carried). */
export interface AsterDialect extends Dialect {
  requests(user?: string): ReturnType<AsterRest['log']['requests']>;
}

/**
 * Aster's own futures API (REST `/fapi/...` and its WebSocket streams, as
 * ccxt 4.5.84 uses them) under `/dialects/aster`, over the simulator's engine.
 */
export function createAsterDialect(deps: DialectDeps): AsterDialect {
  const listenKeys = new ListenKeys();
  const sockets: AsterStreams = new AsterStreams(ASTER, {
    ...deps,
    listenKeys,
    tifOf: (order) => rest.tifOf(order),
  });
  const rest: AsterRest = new AsterRest({
    ...deps,
    listenKeys,
    closeListenKey: (key) => sockets.closeListenKey(key),
    expired: (order) => sockets.order(order),
  });
  return {
    venue: ASTER,
    addRoutes: (router) => rest.addRoutes(router),
    handleUpgrade: (request, socket, head) => sockets.handleUpgrade(request, socket, head),
    drop: (accountId) => sockets.drop(accountId),
    close: () => sockets.close(),
    book: (_venue, symbol, delta, tsMs) => sockets.book(symbol, delta, tsMs),
    order: (_venue, order) => sockets.order(order),
    fill: (_venue, fill) => sockets.fill(fill),
    requests: (user) => rest.log.requests(user),
  };
}
