import type { Socket } from 'node:net';
import WebSocket from 'ws';
import type { FrameCoalescer } from '../common/frame-coalescer';

export interface ReconnectingSocketOptions {
  url: string;
  /** Handshake headers, built afresh for every attempt (signatures carry a timestamp). */
  headers: () => Record<string, string>;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Sent every `pingIntervalMs`; a socket silent for `idleTimeoutMs` is presumed dead. */
  ping: () => string;
  pingIntervalMs: number;
  idleTimeoutMs: number;
  onOpen: () => void;
  onMessage: (text: string) => void;
  /** `status` is the HTTP status when the handshake itself was refused. */
  onClose: (reason: string, status?: number) => void;
  /** Lets frames sent in one burst share writes (see FrameCoalescer). */
  coalescer?: FrameCoalescer;
}

const zeroMask = (mask: Buffer): void => {
  mask.fill(0);
};

/**
 * A WebSocket that stays up: on any close or silence it reconnects with
 * exponential backoff and jitter until stopped. What to resubscribe is the
 * owner's business (`onOpen`).
 */
export class ReconnectingSocket {
  private socket?: WebSocket;
  /** The TCP socket under `socket`, once the handshake is through. */
  private transport?: Socket;
  private attempts = 0;
  private stopped = true;
  private reconnectTimer?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private lastHeardMs = 0;

  constructor(private readonly options: ReconnectingSocketOptions) {}

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    if (!this.stopped) {
      return;
    }
    this.stopped = false;
    this.open();
  }

  /** False when the socket is down; the message is dropped (resubscription covers it). */
  send(text: string): boolean {
    if (!this.isOpen) {
      return false;
    }
    if (this.transport) {
      this.options.coalescer?.beforeWrite(this.transport);
    }
    this.socket!.send(text);
    return true;
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
    }
    if (this.heartbeat) {
      clearInterval(this.heartbeat);
    }
    this.socket?.removeAllListeners();
    this.socket?.on('error', () => undefined);
    this.socket?.terminate();
    this.socket = undefined;
    this.transport = undefined;
  }

  private open(): void {
    const socket = new WebSocket(this.options.url, {
      headers: this.options.headers(),
      handshakeTimeout: 5_000,
      // Masking shields browsers' HTTP proxies from scripted frames; a service
      // talking to a venue gains nothing from it. A zero key (still a masked
      // frame on the wire) lets ws skip the per-frame random bytes and XOR.
      generateMask: zeroMask,
    });
    this.socket = socket;
    this.transport = undefined;
    let closed = false;
    const onGone = (reason: string, status?: number): void => {
      if (closed) {
        return;
      }
      closed = true;
      if (this.heartbeat) {
        clearInterval(this.heartbeat);
      }
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      if (this.stopped) {
        return;
      }
      this.options.onClose(reason, status);
      this.scheduleReconnect();
    };
    socket.on('upgrade', (response) => (this.transport = response.socket));
    socket.on('open', () => {
      this.attempts = 0;
      this.lastHeardMs = Date.now();
      this.heartbeat = setInterval(
        () => this.checkHeartbeat(socket, onGone),
        this.options.pingIntervalMs,
      );
      this.options.onOpen();
    });
    socket.on('message', (data) => {
      this.lastHeardMs = Date.now();
      this.options.onMessage(data.toString());
    });
    socket.on('ping', () => (this.lastHeardMs = Date.now()));
    socket.on('unexpected-response', (_request, response) =>
      onGone(`handshake refused: HTTP ${response.statusCode}`, response.statusCode),
    );
    socket.on('error', (error) => onGone(error.message));
    socket.on('close', (code) => onGone(`closed (${code})`));
  }

  private checkHeartbeat(socket: WebSocket, onGone: (reason: string) => void): void {
    if (Date.now() - this.lastHeardMs > this.options.idleTimeoutMs) {
      onGone(`silent for ${this.options.idleTimeoutMs} ms`);
      return;
    }
    if (socket.readyState === WebSocket.OPEN) {
      socket.send(this.options.ping());
    }
  }

  private scheduleReconnect(): void {
    const ceiling = Math.min(
      this.options.maxBackoffMs,
      this.options.initialBackoffMs * 2 ** this.attempts,
    );
    this.attempts += 1;
    // Jitter spreads the reconnects of many clients after a venue-wide drop.
    const delay = ceiling / 2 + (Math.random() * ceiling) / 2;
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) {
        this.open();
      }
    }, delay);
  }
}
