/**
 * The part of the WHATWG WebSocket the event stream uses. The browser's,
 * Node 22's global one and the `ws` package's all have it, so the SDK imports
 * none of them: it takes the platform's, or the one it is given.
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: 'open' | 'message' | 'close' | 'error',
    listener: (event: SocketEventLike) => void,
  ): void;
}

/** What the stream reads of an event: a message's `data`, a close's `code` and `reason`. */
export interface SocketEventLike {
  type: string;
  data?: unknown;
  code?: number;
  reason?: string;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** WebSocket.OPEN: the same number everywhere, read here without touching the class. */
export const SOCKET_OPEN = 1;

/**
 * The WebSocket to use: the one given, else the platform's (browsers, Node
 * 22+). Node 20 has none without a flag: pass `ws`'s (`import WebSocket from 'ws'`).
 */
export function webSocketOf(given?: WebSocketConstructor): WebSocketConstructor {
  const platform = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  const chosen = given ?? platform;
  if (!chosen) {
    throw new TypeError(
      'no WebSocket in this runtime: pass one as the `WebSocket` option (on Node 20, the ws package)',
    );
  }
  return chosen;
}
