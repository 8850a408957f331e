import type { Dialect, DialectDeps } from '../dialect';

/** Placeholder until the hyperliquid dialect lands: serves nothing. */
export function createHyperliquidDialect(_deps: DialectDeps): Dialect {
  return {
    venue: 'hyperliquid',
    addRoutes: () => undefined,
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
