import type { Logger } from '@sts/platform';
import type { FrameCoalescer } from '../common/frame-coalescer';
import { VenueAuthError, VenueNetworkError } from '../errors';
import type { VenueEvents } from '../venue-events';
import { PaperBooks, type Waiter } from './paper-books';
import {
  signedHeaders,
  type PaperCredentials,
  type WireClientMessage,
  type WireOrderRequest,
  type WireServerMessage,
} from './protocol';
import { ReconnectingSocket } from './reconnecting-socket';
import { toVenueFill, toVenueOrder } from './wire-mapping';

export interface PaperStreamOptions {
  venue: string;
  baseUrl: string;
  credentials: PaperCredentials;
  bookDepth: number;
  reconnect?: { initialMs?: number; maxMs?: number };
  events: VenueEvents;
  marketOf: (symbol: string) => string;
  logger?: Logger;
  coalescer?: FrameCoalescer;
}

/** Slack before the last event seen, for events in flight when the socket died and for clock skew. */
const RECOVERY_MARGIN_MS = 5_000;

/** The answer to an order request on the socket: what the HTTP endpoint would have answered. */
export interface SocketAnswer {
  status: number;
  body: unknown;
}

/** An order request without its id (the stream numbers them); one member per operation. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
export type OrderRequestMessage = WithoutId<WireOrderRequest>;

/**
 * The paper venue's WebSocket as the client sees it: one signed socket with
 * the account channel and book channels, resubscribed after every reconnect.
 * `connected` / `reconnected` are emitted once the account channel is
 * confirmed, so from then on no own event can slip past both the stream and
 * a `fillsSince` from the disconnect time.
 */
export class PaperStream {
  private readonly socket: ReconnectingSocket;
  private readonly books: PaperBooks;
  private readyWaiter?: Waiter;
  private readonly answers = new Map<string, Waiter<SocketAnswer>>();
  private requestSeq = 0;
  /** The account channel is confirmed on the socket that is open now. */
  private accountReady = false;
  private everConnected = false;
  private disconnectedAtMs?: number;
  /** Venue time of the last own event received; recovery starts before it. */
  private lastAccountEventMs?: number;

  constructor(private readonly options: PaperStreamOptions) {
    this.books = new PaperBooks({ ...options, send: (message) => this.send(message) });
    const url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/ws`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    this.socket = new ReconnectingSocket({
      url: url.toString(),
      headers: () => signedHeaders(options.credentials, 'GET', url.pathname, ''),
      initialBackoffMs: options.reconnect?.initialMs ?? 100,
      maxBackoffMs: options.reconnect?.maxMs ?? 5_000,
      ping: () => JSON.stringify({ op: 'ping' } satisfies WireClientMessage),
      pingIntervalMs: 5_000,
      coalescer: options.coalescer,
      idleTimeoutMs: 15_000,
      onOpen: () => this.resubscribe(),
      onMessage: (text) => this.onMessage(text),
      onClose: (reason, status) => this.onClose(reason, status),
    });
  }

  /** Opens the socket and resolves once the account channel is confirmed. */
  start(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new VenueNetworkError(this.options.venue, `stream not ready within ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
      this.readyWaiter = { resolve, reject, timer };
      this.socket.start();
    });
  }

  /** True while orders can go on the socket (open, account confirmed). */
  get takesOrders(): boolean {
    return this.accountReady && this.socket.isOpen;
  }

  /**
   * Sends an order request on the socket. Rejects with VenueNetworkError
   * when the socket is down, closes before the answer or the answer takes
   * longer than `timeoutMs`: the order's fate is then unknown.
   */
  request(message: OrderRequestMessage, timeoutMs: number): Promise<SocketAnswer> {
    this.requestSeq += 1;
    const id = String(this.requestSeq);
    const { venue } = this.options;
    return new Promise<SocketAnswer>((resolve, reject) => {
      if (!this.socket.send(JSON.stringify({ op: message.op, id, params: message.params }))) {
        // Never written: the venue cannot execute it, so it is settled now.
        reject(
          new VenueNetworkError(venue, 'stream is down: order not sent', undefined, Date.now()),
        );
        return;
      }
      const timer = setTimeout(() => {
        this.answers.delete(id);
        reject(new VenueNetworkError(venue, `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.answers.set(id, { resolve, reject, timer });
    });
  }

  stop(): void {
    this.failAnswers('stream stopped');
    this.socket.stop();
    this.accountReady = false;
    this.everConnected = false;
    this.disconnectedAtMs = undefined;
    this.books.clear();
  }

  /** Resolves at the first snapshot of the market. */
  subscribeBook(symbol: string, timeoutMs: number): Promise<void> {
    return this.books.subscribe(symbol, timeoutMs);
  }

  unsubscribeBook(symbol: string): void {
    this.books.unsubscribe(symbol);
  }

  private resubscribe(): void {
    this.send({ op: 'subscribe', channel: 'account' });
    this.books.resubscribe();
  }

  private onMessage(text: string): void {
    let message: WireServerMessage;
    try {
      message = JSON.parse(text) as WireServerMessage;
    } catch {
      this.options.logger?.warn({ venue: this.options.venue }, 'unparseable stream message');
      return;
    }
    const { events, venue, marketOf } = this.options;
    switch (message.type) {
      case 'fill':
        this.lastAccountEventMs = message.fill.ts_ms;
        return events.emit('fill', toVenueFill(venue, marketOf(message.fill.symbol), message.fill));
      case 'order':
        this.lastAccountEventMs = message.order.updated_at_ms;
        return events.emit(
          'order',
          toVenueOrder(venue, marketOf(message.order.symbol), message.order),
        );
      case 'book_snapshot':
      case 'book_delta':
        return this.books.onMessage(message);
      case 'subscribed':
        if (message.channel === 'account') {
          this.onAccountReady();
        }
        return;
      case 'error':
        this.options.logger?.warn(
          { venue, code: message.code, error: message.error },
          'venue stream error',
        );
        if (message.code === 'unauthorized') {
          this.failReady(new VenueAuthError(venue, message.error));
        }
        return;
      case 'response':
        return this.onAnswer(message.id, { status: message.status, body: message.body });
      case 'unsubscribed':
      case 'pong':
        return;
      default:
        return;
    }
  }

  private onAnswer(id: string, answer: SocketAnswer): void {
    const waiter = this.answers.get(id);
    if (!waiter) {
      return;
    }
    this.answers.delete(id);
    clearTimeout(waiter.timer);
    waiter.resolve(answer);
  }

  /** Requests in flight when the socket went: their orders' fate is unknown to the caller. */
  private failAnswers(reason: string): void {
    for (const waiter of this.answers.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new VenueNetworkError(this.options.venue, `${reason} before the answer`));
    }
    this.answers.clear();
  }

  private onAccountReady(): void {
    this.accountReady = true;
    const atMs = Date.now();
    if (this.readyWaiter) {
      clearTimeout(this.readyWaiter.timer);
      this.readyWaiter.resolve();
      this.readyWaiter = undefined;
    }
    if (!this.everConnected) {
      this.everConnected = true;
      this.options.events.emit('connection', { state: 'connected', atMs });
    } else if (this.disconnectedAtMs !== undefined) {
      const lastSeen = Math.min(
        this.disconnectedAtMs,
        this.lastAccountEventMs ?? this.disconnectedAtMs,
      );
      this.options.events.emit('connection', {
        state: 'reconnected',
        atMs,
        disconnectedAtMs: this.disconnectedAtMs,
        recoverFromMs: lastSeen - RECOVERY_MARGIN_MS,
      });
    }
    this.disconnectedAtMs = undefined;
  }

  private onClose(reason: string, status?: number): void {
    this.accountReady = false;
    this.failAnswers(`stream closed (${reason})`);
    if (status === 401 || status === 403) {
      this.failReady(
        new VenueAuthError(this.options.venue, 'stream handshake refused: bad credentials'),
      );
    }
    if (!this.everConnected) {
      return;
    }
    if (this.disconnectedAtMs !== undefined) {
      return;
    }
    this.disconnectedAtMs = Date.now();
    this.options.events.emit('connection', {
      state: 'disconnected',
      atMs: this.disconnectedAtMs,
      reason,
    });
  }

  private failReady(error: Error): void {
    if (!this.readyWaiter) {
      return;
    }
    clearTimeout(this.readyWaiter.timer);
    this.readyWaiter.reject(error);
    this.readyWaiter = undefined;
  }

  private send(message: WireClientMessage): void {
    this.socket.send(JSON.stringify(message));
  }
}
