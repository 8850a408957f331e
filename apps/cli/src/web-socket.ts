import NodeWebSocket from 'ws';
import type { WebSocketConstructor } from '@sts/sdk';

/**
 * The WebSocket the SDK's stream uses in the CLI: the platform's where Node
 * has one (22+), else the ws package's (Node 20 has none without a flag).
 */
export const cliWebSocket: WebSocketConstructor =
  (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ?? NodeWebSocket;
