import WebSocket from 'ws';
import type { TradeStatus } from './types';

/** Messages of the notifier WebSocket (apps/gateway/asyncapi.json). */
export type LifecycleEventName =
  | 'trade.started'
  | 'trade.completed'
  | 'trade.failed'
  | 'trade.canceled'
  | 'trade.paused'
  | 'trade.resumed';

export interface TradeLifecycleEvent {
  type: 'event';
  event: LifecycleEventName;
  event_id: string;
  trade_id: string;
  status: TradeStatus;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface MaintenanceEvent {
  type: 'event';
  event: 'maintenance';
  event_id: string;
  /** An exchange id, `_system`, or `_kill_switch`. */
  exchange: string;
  enabled: boolean;
  reason: string;
  updated_by?: string;
  updated_at: string;
  timestamp: string;
}

export type StsEvent = TradeLifecycleEvent | MaintenanceEvent;

/** Close codes after which reconnecting with the same credentials cannot help. */
const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([1009, 4001, 4003, 4009]);
const FATAL_UPGRADE_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 431]);
const REMEMBERED_EVENT_IDS = 1000;

export class StsStreamClosedError extends Error {
  constructor(
    readonly closeCode: number,
    readonly closeReason: string,
  ) {
    super(`event stream closed for good: ${closeCode} ${closeReason}`);
    this.name = 'StsStreamClosedError';
  }
}

export interface StsEventStreamOptions {
  /** The notifier socket, e.g. `ws://localhost:3001/api/v1/ws`. */
  url: string;
  /** An API key with trades:read (sent as X-API-Key on the upgrade). */
  apiKey: string;
  /** First reconnect delay, doubled per failed attempt. Default 250 ms. */
  reconnectBaseMs?: number;
  /** Longest reconnect delay. Default 10 s. */
  reconnectMaxMs?: number;
}

type Waiter = { resolve: (result: IteratorResult<StsEvent>) => void; reject: (e: Error) => void };

/**
 * A notifier connection that stays up: it authenticates on the upgrade,
 * (re)sends every subscription it was asked for on each connection, reconnects
 * with backoff when the socket drops (replica restart, network), drops an
 * event seen twice (by `event_id`), and yields typed events in order.
 * Events published while no socket was connected are not replayed by the
 * server: after `reconnected`, rebuild state with GET /api/v1/trades/{id}.
 */
export class StsEventStream implements AsyncIterable<StsEvent> {
  private socket?: WebSocket;
  private readonly subscriptions = new Set<string>();
  private pendingConfirmations = new Set<string>();
  private confirmed: Array<() => void> = [];
  private readonly queue: StsEvent[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly seen: string[] = [];
  private readonly seenSet = new Set<string>();
  private failures = 0;
  private closed?: Error;
  private retryTimer?: NodeJS.Timeout;
  /** Connections opened so far (1 on the first, 2 after the first reconnect...). */
  connections = 0;

  constructor(private readonly options: StsEventStreamOptions) {
    this.connect();
  }

  /** One trade, or (no id) every trade of the caller's, present and future. */
  subscribe(tradeId?: string): void {
    const key = tradeId ?? '';
    this.subscriptions.add(key);
    this.sendSubscribe(key);
  }

  unsubscribe(tradeId?: string): void {
    const key = tradeId ?? '';
    this.subscriptions.delete(key);
    this.pendingConfirmations.delete(key);
    this.sendOp('unsubscribe', key);
  }

  /** Resolves once every subscription is confirmed on the current connection. */
  subscribed(): Promise<void> {
    if (this.socket?.readyState === WebSocket.OPEN && this.pendingConfirmations.size === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.confirmed.push(resolve));
  }

  close(): void {
    this.finish(new StsStreamClosedError(1000, 'closed by the client'));
    clearTimeout(this.retryTimer);
    this.socket?.close(1000);
  }

  [Symbol.asyncIterator](): AsyncIterator<StsEvent> {
    return {
      next: () => {
        const event = this.queue.shift();
        if (event) {
          return Promise.resolve({ value: event, done: false });
        }
        if (this.closed) {
          return this.closed instanceof StsStreamClosedError && this.closed.closeCode === 1000
            ? Promise.resolve({ value: undefined, done: true })
            : Promise.reject(this.closed);
        }
        return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private connect(): void {
    const socket = new WebSocket(this.options.url, {
      headers: { 'x-api-key': this.options.apiKey },
    });
    this.socket = socket;
    socket.on('open', () => {
      this.connections += 1;
      this.pendingConfirmations = new Set(this.subscriptions);
      for (const key of this.subscriptions) {
        this.sendSubscribe(key);
      }
      this.settleConfirmations();
    });
    socket.on('message', (data) => this.receive(String(data)));
    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      if (FATAL_UPGRADE_STATUSES.has(status)) {
        this.finish(new StsStreamClosedError(4000 + status, `upgrade refused with ${status}`));
      }
      socket.terminate();
    });
    socket.on('error', () => undefined); // 'close' follows and decides
    socket.on('close', (code, reason) => {
      if (this.socket !== socket || this.closed) {
        return;
      }
      if (FATAL_CLOSE_CODES.has(code)) {
        this.finish(new StsStreamClosedError(code, String(reason)));
        return;
      }
      const base = this.options.reconnectBaseMs ?? 250;
      const delay = Math.min(this.options.reconnectMaxMs ?? 10_000, base * 2 ** this.failures);
      this.failures += 1;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as {
      type: string;
      op?: string;
      event_id?: string;
      params?: { trade_id?: string };
    };
    if (message.type === 'subscribed') {
      this.failures = 0;
      this.pendingConfirmations.delete(message.params?.trade_id ?? '');
      this.settleConfirmations();
      return;
    }
    if (message.type === 'error' && message.op === 'subscribe') {
      // trade not found: that subscription will never be confirmed, nor re-sent
      const key = message.params?.trade_id ?? '';
      this.subscriptions.delete(key);
      this.pendingConfirmations.delete(key);
      this.settleConfirmations();
      return;
    }
    if (message.type !== 'event' || !message.event_id) {
      return;
    }
    if (this.seenSet.has(message.event_id)) {
      return;
    }
    this.seenSet.add(message.event_id);
    this.seen.push(message.event_id);
    if (this.seen.length > REMEMBERED_EVENT_IDS) {
      this.seenSet.delete(this.seen.shift()!);
    }
    const event = message as unknown as StsEvent;
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter.resolve({ value: event, done: false });
    } else {
      this.queue.push(event);
    }
  }

  private sendSubscribe(key: string): void {
    this.pendingConfirmations.add(key);
    this.sendOp('subscribe', key);
  }

  private sendOp(op: 'subscribe' | 'unsubscribe', key: string): void {
    if (this.socket?.readyState !== WebSocket.OPEN) {
      return;
    }
    this.socket.send(
      JSON.stringify({ op, subscription: 'trades', params: key ? { trade_id: key } : {} }),
    );
  }

  private settleConfirmations(): void {
    if (this.pendingConfirmations.size > 0) {
      return;
    }
    for (const resolve of this.confirmed.splice(0)) {
      resolve();
    }
  }

  private finish(error: Error): void {
    if (this.closed) {
      return;
    }
    this.closed = error;
    for (const waiter of this.waiters.splice(0)) {
      if (error instanceof StsStreamClosedError && error.closeCode === 1000) {
        waiter.resolve({ value: undefined, done: true });
      } else {
        waiter.reject(error);
      }
    }
  }
}
