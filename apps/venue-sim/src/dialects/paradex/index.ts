import type { Dialect, DialectDeps } from '../dialect';
import { PARADEX, ParadexRest } from './paradex-rest';

/**
 * Paradex's own REST API under `/dialects/paradex/v1`, over the simulator's
 * engine (README.md in this folder says how far it is served). Its JSON-RPC
 * socket is not served yet: upgrades are refused.
 */
export function createParadexDialect(deps: DialectDeps): Dialect {
  const rest = new ParadexRest(deps);
  return {
    venue: PARADEX,
    addRoutes: (router) => rest.addRoutes(router),
    handleUpgrade: (_request, socket) => {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    },
    drop: () => 0,
    close: () => undefined,
    book: () => undefined,
    order: () => undefined,
    fill: () => undefined,
  };
}
