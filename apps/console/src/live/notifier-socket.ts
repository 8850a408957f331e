/** A lifecycle event of one of the caller's trades (notifier README, Server events). */
export interface TradeLifecycleFrame {
  type: 'event';
  event:
    | 'trade.started'
    | 'trade.completed'
    | 'trade.failed'
    | 'trade.canceled'
    | 'trade.paused'
    | 'trade.resumed';
  event_id: string;
  trade_id: string;
  status: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** A maintenance flag change; the kill switch arrives as exchange `_kill_switch`. */
export interface MaintenanceFrame {
  type: 'event';
  event: 'maintenance';
  event_id: string;
  exchange: string;
  enabled: boolean;
  reason: string;
  updated_by: string;
  updated_at: string;
  timestamp: string;
}

export type NotifierEvent = TradeLifecycleFrame | MaintenanceFrame;
/** `streaming`: subscribed, events arrive (not "live": in the console that word names a real-money venue). */
export type SocketState = 'connecting' | 'streaming' | 'reconnecting' | 'closed';

interface ServerFrame {
  type: string;
  event?: string;
  event_id?: string;
  code?: string;
  error?: string;
}

/** Close codes a reconnect cannot fix (apps/notifier README, Close codes). */
const FINAL_CLOSE_CODES = new Set([1009, 4001, 4003]);
const MAX_BACKOFF_MS = 10_000;
const SEEN_EVENTS_KEPT = 1_000;

/**
 * The console's one socket to the notifier: authenticates with the session
 * JWT in its first message, subscribes to all of the caller's trades,
 * reconnects with backoff, renews its credentials in place (a new `auth`
 * message before the JWT expires) and drops an event it has already seen.
 */
export class NotifierSocket {
  private socket?: WebSocket;
  private token: string;
  private attempts = 0;
  private closed = false;
  private retryTimer = 0;
  private readonly seen = new Set<string>();
  private readonly listeners = new Set<(event: NotifierEvent) => void>();
  private readonly stateListeners = new Set<(state: SocketState) => void>();
  private current: SocketState = 'connecting';

  constructor(
    private readonly url: string,
    token: string,
    private readonly onRefused: (reason: string) => void,
  ) {
    this.token = token;
    this.connect();
  }

  get state(): SocketState {
    return this.current;
  }

  onEvent(listener: (event: NotifierEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  onState(listener: (state: SocketState) => void): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  /** The renewed JWT: sent on the open socket, used by every later connection. */
  renew(token: string): void {
    this.token = token;
    if (this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ op: 'auth', token }));
    }
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.retryTimer);
    this.socket?.close(1000, 'signed out');
    this.setState('closed');
  }

  private connect(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      socket.send(JSON.stringify({ op: 'auth', token: this.token }));
      socket.send(JSON.stringify({ op: 'subscribe', subscription: 'trades', params: {} }));
    });
    socket.addEventListener('message', (message) => this.receive(String(message.data)));
    socket.addEventListener('close', (closing) => {
      if (this.closed || socket !== this.socket) {
        return;
      }
      if (FINAL_CLOSE_CODES.has(closing.code)) {
        this.setState('closed');
        this.onRefused(closing.reason || `closed with ${closing.code}`);
        return;
      }
      this.setState('reconnecting');
      const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempts);
      this.attempts += 1;
      this.retryTimer = window.setTimeout(() => this.connect(), delay);
    });
  }

  private receive(text: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      return;
    }
    if (frame.type === 'subscribed') {
      this.attempts = 0;
      this.setState('streaming');
      return;
    }
    if (frame.type !== 'event' || !frame.event_id || this.seen.has(frame.event_id)) {
      return;
    }
    this.seen.add(frame.event_id);
    if (this.seen.size > SEEN_EVENTS_KEPT) {
      this.seen.delete(this.seen.values().next().value as string);
    }
    for (const listener of this.listeners) {
      listener(frame as unknown as NotifierEvent);
    }
  }

  private setState(state: SocketState): void {
    this.current = state;
    for (const listener of this.stateListeners) {
      listener(state);
    }
  }
}
