import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

type DispatcherOptions = (this: object, isPlainAgent?: boolean) => Record<string, unknown>;

/**
 * ccxt constructor config that sends every request and socket of one
 * exchange instance from the local address `bind` (its account's egress, so
 * the venue counts it against that address's per-IP limits). Read from ccxt
 * 4.5.84's own source (`js/src/base/Exchange.js`, `ws/WsClient.js`):
 *
 * - REST goes through undici (`undiciRequest` with `fetchDispatcher`, an
 *   undici Agent built from `getDispatcherOptions(true)` on the first
 *   request); its `httpAgent`/`httpsAgent` slots only carry proxies there.
 *   undici's Agent binds the `localAddress` option of its connections.
 * - A WebSocket is opened by the `ws` library with ccxt's `{agent}`: its
 *   `httpAgent` for a `ws://` URL (`getHttpAgentIfNeeded`), else its `agent`.
 *   Node's agents bind the `localAddress` they were built with.
 */
export function egressTransport(bind: string): Record<string, unknown> {
  return {
    getDispatcherOptions(this: object, isPlainAgent = false): Record<string, unknown> {
      const inherited = (Object.getPrototypeOf(this) as { getDispatcherOptions: DispatcherOptions })
        .getDispatcherOptions;
      const options = inherited.call(this, isPlainAgent);
      // A proxy's dispatcher (not plain) connects to the proxy: no egress of ours is configured so.
      return isPlainAgent ? { ...options, localAddress: bind } : options;
    },
    httpAgent: new HttpAgent({ localAddress: bind }),
    agent: new HttpsAgent({ localAddress: bind }),
  };
}
