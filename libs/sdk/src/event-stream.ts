import { StsStreamClosedError } from './errors';
import type { ServerFrame, StsEvent, StsFill, SubscriptionName } from './stream-frames';
import {
  SOCKET_OPEN,
  webSocketOf,
  type SocketEventLike,
  type WebSocketConstructor,
  type WebSocketLike,
} from './web-socket';

/** Close codes after which reconnecting with the same credentials cannot help. */
const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([1009, 4001, 4003, 4009]);
const REMEMBERED_EVENT_IDS = 1000;

export interface StsEventStreamOptions {
  /** The notifier socket, e.g. `ws://localhost:3001/api/v1/ws`. */
  url: string;
  /** An API key with trades:read (bots). Sent in the first message, as browsers must. */
  apiKey?: string;
  /** Or a session JWT (the console); `renew` hands over the next one without reconnecting. */
  token?: string;
  /** The WebSocket class; default the platform's (browsers, Node 22+). On Node 20: `ws`'s. */
  WebSocket?: WebSocketConstructor;
  /** First reconnect delay, doubled per failed attempt. Default 250 ms. */
  reconnectBaseMs?: number;
  /** Longest reconnect delay. Default 10 s. */
  reconnectMaxMs?: number;
}

/** `streaming`: signed in, subscriptions sent; `closed`: for good (see `closedBy`). */
export type StreamState = 'connecting' | 'streaming' | 'reconnecting' | 'closed';

export interface FillSubscriptionOptions {
  /** Replay the trade's logged fills from this sequence (the log's), then push live ones. */
  fromSequence?: number;
}

type Waiter = { resolve: (result: IteratorResult<StsEvent>) => void; reject: (e: Error) => void };
type Listener<T> = (value: T) => void;

const keyOf = (subscription: SubscriptionName, tradeId = '') => `${subscription}:${tradeId}`;

/**
 * A notifier connection that stays up: it signs in with its first message,
 * (re)sends every subscription it was asked for on each connection,
 * reconnects with backoff when the socket drops (replica restart, network),
 * drops an event seen twice (by `event_id`) and a fill seen twice (by its
 * sequence), and hands over typed events in order: by iteration or to
 * `onEvent` listeners, fills to `onFill` listeners. A fills subscription of
 * one trade resumes after a reconnect from the last sequence seen + 1, so no
 * fill is missed; lifecycle events are not replayed by the server: after a
 * reconnect, rebuild state with GET /api/v1/trades/{id} (`onSubscribed`).
 */
export class StsEventStream implements AsyncIterable<StsEvent> {
  private socket?: WebSocketLike;
  private readonly WebSocket: WebSocketConstructor;
  private credentials: { api_key: string } | { token: string };
  private readonly tradeSubscriptions = new Set<string>();
  /** Per trade id ('' for all trades): the sequence asked for at first, if any. */
  private readonly fillSubscriptions = new Map<string, number | undefined>();
  private readonly lastFillSequence = new Map<string, number>();
  private pendingConfirmations = new Set<string>();
  private confirmed: Array<() => void> = [];
  private readonly queue: StsEvent[] = [];
  private readonly waiters: Waiter[] = [];
  private iterating = false;
  /** Delivered event ids, oldest first (a Set keeps insertion order). */
  private readonly seen = new Set<string>();
  private readonly eventListeners = new Set<Listener<StsEvent>>();
  private readonly fillListeners = new Set<Listener<StsFill>>();
  private readonly stateListeners = new Set<Listener<StreamState>>();
  private readonly reconfirmedListeners = new Set<Listener<number>>();
  /** The last connection whose subscriptions were all confirmed (0: none yet). */
  private confirmedConnection = 0;
  private current: StreamState = 'connecting';
  private failures = 0;
  private retryTimer?: ReturnType<typeof setTimeout>;
  /** Why the stream ended for good, once it has. */
  closedBy?: StsStreamClosedError;
  /** Connections opened so far (1 on the first, 2 after the first reconnect...). */
  connections = 0;

  constructor(private readonly options: StsEventStreamOptions) {
    this.WebSocket = webSocketOf(options.WebSocket);
    if (options.apiKey) {
      this.credentials = { api_key: options.apiKey };
    } else if (options.token) {
      this.credentials = { token: options.token };
    } else {
      throw new TypeError('StsEventStream needs an apiKey or a token');
    }
    this.connect();
  }

  get state(): StreamState {
    return this.current;
  }

  /** One trade's lifecycle events, or (no id) every trade of the caller's, present and future. */
  subscribe(tradeId?: string): void {
    this.tradeSubscriptions.add(tradeId ?? '');
    this.sendSubscribe('trades', tradeId ?? '');
  }

  unsubscribe(tradeId?: string): void {
    this.tradeSubscriptions.delete(tradeId ?? '');
    this.pendingConfirmations.delete(keyOf('trades', tradeId));
    this.sendOp('unsubscribe', 'trades', tradeId ? { trade_id: tradeId } : {});
  }

  /** One trade's fills (from `fromSequence`, replayed), or (no id) every trade's, live only. */
  subscribeFills(tradeId?: string, options: FillSubscriptionOptions = {}): void {
    this.fillSubscriptions.set(tradeId ?? '', tradeId ? options.fromSequence : undefined);
    this.sendSubscribe('fills', tradeId ?? '');
  }

  unsubscribeFills(tradeId?: string): void {
    this.fillSubscriptions.delete(tradeId ?? '');
    this.pendingConfirmations.delete(keyOf('fills', tradeId));
    this.sendOp('unsubscribe', 'fills', tradeId ? { trade_id: tradeId } : {});
  }

  /** Resolves once every subscription is confirmed on the current connection. */
  subscribed(): Promise<void> {
    if (this.socket?.readyState === SOCKET_OPEN && this.pendingConfirmations.size === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.confirmed.push(resolve));
  }

  onEvent(listener: Listener<StsEvent>): () => void {
    return this.listen(this.eventListeners, listener);
  }

  onFill(listener: Listener<StsFill>): () => void {
    return this.listen(this.fillListeners, listener);
  }

  onState(listener: Listener<StreamState>): () => void {
    return this.listen(this.stateListeners, listener);
  }

  /**
   * Calls `listener` (with `connections`) once the subscriptions made so far
   * are confirmed, then each time a reconnect has confirmed them all. The
   * server does not replay lifecycle events the socket missed: read the
   * trades again here. A subscription added later on the same connection
   * calls nothing (await `subscribed()`).
   */
  onSubscribed(listener: Listener<number>): () => void {
    let confirmedOn = Number.POSITIVE_INFINITY;
    const stop = this.listen(this.reconfirmedListeners, (connection) => {
      if (connection > confirmedOn) {
        listener(connection);
      }
    });
    void this.subscribed().then(() => {
      if (confirmedOn !== -1) {
        confirmedOn = this.connections;
        listener(confirmedOn);
      }
    });
    return () => {
      confirmedOn = -1;
      stop();
    };
  }

  /** A renewed session JWT: sent on the open socket, used by every later connection. */
  renew(token: string): void {
    this.credentials = { token };
    this.send({ op: 'auth', token });
  }

  close(): void {
    this.finish(new StsStreamClosedError(1000, 'closed by the client'));
    clearTimeout(this.retryTimer);
    this.socket?.close(1000);
  }

  [Symbol.asyncIterator](): AsyncIterator<StsEvent> {
    this.iterating = true;
    return {
      next: () => {
        const event = this.queue.shift();
        if (event) {
          return Promise.resolve({ value: event, done: false });
        }
        if (this.closedBy) {
          return this.closedBy.closeCode === 1000
            ? Promise.resolve({ value: undefined, done: true })
            : Promise.reject(this.closedBy);
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
    let socket: WebSocketLike;
    try {
      socket = new this.WebSocket(this.options.url);
    } catch (error) {
      this.finish(new StsStreamClosedError(1002, `cannot open ${this.options.url}: ${error}`));
      return;
    }
    this.socket = socket;
    socket.addEventListener('open', () => this.opened(socket));
    socket.addEventListener('message', (event) => this.receive(String(event.data)));
    socket.addEventListener('error', () => undefined); // 'close' follows and decides
    socket.addEventListener('close', (event) => this.dropped(socket, event));
  }

  /** A new connection: sign in, then every subscription (the server keeps their order). */
  private opened(socket: WebSocketLike): void {
    if (socket !== this.socket || this.closedBy) {
      return;
    }
    this.connections += 1;
    this.send({ op: 'auth', ...this.credentials });
    this.pendingConfirmations = new Set();
    for (const tradeId of this.tradeSubscriptions) {
      this.sendSubscribe('trades', tradeId);
    }
    for (const tradeId of this.fillSubscriptions.keys()) {
      this.sendSubscribe('fills', tradeId);
    }
    this.settleConfirmations();
  }

  private dropped(socket: WebSocketLike, event: SocketEventLike): void {
    if (this.socket !== socket || this.closedBy) {
      return;
    }
    const code = event.code ?? 1006;
    if (FATAL_CLOSE_CODES.has(code)) {
      this.finish(new StsStreamClosedError(code, event.reason ?? ''));
      return;
    }
    this.setState('reconnecting');
    const base = this.options.reconnectBaseMs ?? 250;
    const delay = Math.min(this.options.reconnectMaxMs ?? 10_000, base * 2 ** this.failures);
    this.failures += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private receive(text: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      return;
    }
    switch (frame.type) {
      case 'authenticated':
        return this.setState('streaming');
      case 'subscribed':
        this.failures = 0;
        this.pendingConfirmations.delete(
          keyOf(frame.subscription ?? 'trades', frame.params?.trade_id),
        );
        return this.settleConfirmations();
      case 'error':
        return frame.op === 'subscribe' ? this.refused(frame) : undefined;
      case 'fill':
        return this.deliverFill(frame as unknown as StsFill);
      case 'event':
        return this.deliverEvent(frame as unknown as StsEvent);
      default:
        return;
    }
  }

  /** Trade not found: that subscription will never be confirmed, nor re-sent. */
  private refused(frame: ServerFrame): void {
    const tradeId = frame.params?.trade_id ?? '';
    // An error frame may not say which subscription: an unknown trade is unknown to both.
    const names: SubscriptionName[] = frame.subscription
      ? [frame.subscription]
      : ['trades', 'fills'];
    for (const name of names) {
      (name === 'trades' ? this.tradeSubscriptions : this.fillSubscriptions).delete(tradeId);
      this.pendingConfirmations.delete(keyOf(name, tradeId));
    }
    this.settleConfirmations();
  }

  private deliverFill(fill: StsFill): void {
    const last = this.lastFillSequence.get(fill.trade_id);
    if (last !== undefined && fill.sequence <= last) {
      return;
    }
    this.lastFillSequence.set(fill.trade_id, fill.sequence);
    for (const listener of this.fillListeners) {
      listener(fill);
    }
  }

  private deliverEvent(event: StsEvent): void {
    if (!event.event_id || this.seen.has(event.event_id)) {
      return;
    }
    this.seen.add(event.event_id);
    if (this.seen.size > REMEMBERED_EVENT_IDS) {
      this.seen.delete(this.seen.values().next().value as string);
    }
    for (const listener of this.eventListeners) {
      listener(event);
    }
    // Kept for iteration, unless the caller only listens (then nothing would ever read it).
    const listensOnly = this.eventListeners.size + this.fillListeners.size > 0;
    if (!this.iterating && listensOnly) {
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter.resolve({ value: event, done: false });
    } else {
      this.queue.push(event);
    }
  }

  /** The sequence a fills subscription asks for: after the last one seen, else the first asked. */
  private fromSequenceOf(tradeId: string): number | undefined {
    const last = tradeId ? this.lastFillSequence.get(tradeId) : undefined;
    return last !== undefined ? last + 1 : this.fillSubscriptions.get(tradeId);
  }

  private sendSubscribe(subscription: SubscriptionName, tradeId: string): void {
    this.pendingConfirmations.add(keyOf(subscription, tradeId));
    const params: Record<string, unknown> = tradeId ? { trade_id: tradeId } : {};
    const fromSequence = subscription === 'fills' ? this.fromSequenceOf(tradeId) : undefined;
    if (fromSequence !== undefined) {
      params['from_sequence'] = fromSequence;
    }
    this.sendOp('subscribe', subscription, params);
  }

  private sendOp(
    op: 'subscribe' | 'unsubscribe',
    subscription: SubscriptionName,
    params: Record<string, unknown>,
  ): void {
    this.send({ op, subscription, params });
  }

  private send(message: Record<string, unknown>): void {
    if (this.socket?.readyState === SOCKET_OPEN) {
      this.socket.send(JSON.stringify(message));
    }
  }

  private settleConfirmations(): void {
    if (this.pendingConfirmations.size > 0) {
      return;
    }
    for (const resolve of this.confirmed.splice(0)) {
      resolve();
    }
    if (this.socket?.readyState === SOCKET_OPEN && this.confirmedConnection !== this.connections) {
      this.confirmedConnection = this.connections;
      for (const listener of this.reconfirmedListeners) {
        listener(this.connections);
      }
    }
  }

  private listen<T>(listeners: Set<Listener<T>>, listener: Listener<T>): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  private setState(state: StreamState): void {
    this.current = state;
    for (const listener of this.stateListeners) {
      listener(state);
    }
  }

  private finish(error: StsStreamClosedError): void {
    if (this.closedBy) {
      return;
    }
    this.closedBy = error;
    for (const waiter of this.waiters.splice(0)) {
      if (error.closeCode === 1000) {
        waiter.resolve({ value: undefined, done: true });
      } else {
        waiter.reject(error);
      }
    }
    this.setState('closed');
  }
}
