import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData } from 'ws';
import type { Logger } from '@sts/platform';
import type { WireClientMessage, WireOrderRequest, WireServerMessage } from '@sts/venues';
import type { FaultInjector } from '../control/faults';
import type { BookDelta } from '../engine/order-book';
import type { Simulator } from '../engine/simulator';
import type { EngineFill, EngineOrder, EngineSink } from '../engine/types';
import type { AccountDirectory } from './account-directory';
import { AnswerLost, HttpFailure, failureReply } from './http-kit';
import type { OrderEntry } from './order-entry';
import { StreamConnection } from './stream-connection';
import { wireBookLevels, wireFill, wireLevels, wireOrder } from './wire-format';

const HEARTBEAT_MS = 15_000;
const WS_PATH = /^\/venues\/([a-z0-9_-]+)\/ws$/;

/**
 * The venues' WebSocket streams: book snapshot then deltas with sequence
 * numbers per market, and each authenticated account's order updates and
 * fills. It is the engine's sink, so events go out in the order they happen.
 * A signed socket also takes orders (place, cancel, replace): each answer is
 * a `response` sent after the order and fill events the request caused.
 */
export class StreamHub implements EngineSink {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly connections = new Set<StreamConnection>();
  private readonly accountSeq = new Map<string, number>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly world: () => Simulator,
    private readonly directory: AccountDirectory,
    private readonly faults: FaultInjector,
    private readonly orders: OrderEntry,
    private readonly logger: Logger,
  ) {
    this.heartbeat = setInterval(() => this.checkAlive(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://venue-sim');
    const venue = WS_PATH.exec(url.pathname)?.[1];
    if (!venue || !this.world().venues.has(venue)) {
      return refuse(socket, 404, 'Not Found');
    }
    if (this.faults.socketsBlocked(venue)) {
      return refuse(socket, 503, 'Service Unavailable');
    }
    let accountId: string | undefined;
    if (request.headers['x-sts-api-key']) {
      try {
        accountId = this.directory.authenticate(
          venue,
          request.headers,
          'GET',
          `${url.pathname}${url.search}`,
          '',
          Date.now(),
        );
      } catch (error) {
        return refuse(socket, error instanceof HttpFailure ? error.status : 401, 'Unauthorized');
      }
      if (this.faults.walletSocketsBlocked(venue, accountId)) {
        return refuse(socket, 503, 'Service Unavailable');
      }
    }
    this.server.handleUpgrade(request, socket, head, (ws) => {
      const connection = new StreamConnection(ws, venue, accountId, () =>
        this.faults.latencyOf(venue),
      );
      this.connections.add(connection);
      ws.on('message', (data) => this.onMessage(connection, data));
      ws.on('pong', () => (connection.alive = true));
      ws.on('close', () => this.connections.delete(connection));
      ws.on('error', (error) =>
        this.logger.debug({ venue, err: error.message }, 'stream socket error'),
      );
    });
  }

  book(venue: string, symbol: string, delta: BookDelta & { seq: number }, tsMs: number): void {
    let text: string | undefined;
    for (const connection of this.connections) {
      if (connection.venue !== venue || !connection.books.has(symbol)) {
        continue;
      }
      if (text === undefined) {
        const market = this.world().venue(venue).market(symbol);
        text = encode({
          type: 'book_delta',
          symbol,
          seq: delta.seq,
          bids: wireLevels(market, delta.bids),
          asks: wireLevels(market, delta.asks),
          ts_ms: tsMs,
        });
      }
      connection.send(text);
    }
  }

  order(venue: string, order: EngineOrder): void {
    this.toAccount(venue, order.accountId, (seq) => ({
      type: 'order',
      seq,
      order: wireOrder(this.world().venue(venue), order),
    }));
  }

  fill(venue: string, fill: EngineFill): void {
    this.toAccount(venue, fill.accountId, (seq) => ({
      type: 'fill',
      seq,
      fill: wireFill(this.world().venue(venue), fill),
    }));
  }

  /** Drops every socket of a venue (or of one account on it) as a network failure would. */
  drop(venue?: string, accountId?: string): number {
    let dropped = 0;
    for (const connection of this.connections) {
      if (venue && connection.venue !== venue) {
        continue;
      }
      if (accountId && connection.accountId !== accountId.toLowerCase()) {
        continue;
      }
      connection.drop();
      this.connections.delete(connection);
      dropped += 1;
    }
    return dropped;
  }

  /** Cuts one socket as a network failure would. */
  dropConnection(connection: StreamConnection): void {
    connection.drop();
    this.connections.delete(connection);
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.drop();
    this.server.close();
  }

  private toAccount(
    venue: string,
    accountId: string,
    build: (seq: number) => WireServerMessage,
  ): void {
    const key = `${venue}\u0000${accountId}`;
    const seq = (this.accountSeq.get(key) ?? 0) + 1;
    this.accountSeq.set(key, seq);
    let text: string | undefined;
    for (const connection of this.connections) {
      if (connection.venue !== venue || connection.accountId !== accountId || !connection.account) {
        continue;
      }
      text ??= encode(build(seq));
      connection.send(text);
    }
  }

  private onMessage(connection: StreamConnection, data: RawData): void {
    let message: WireClientMessage;
    try {
      message = JSON.parse(data.toString()) as WireClientMessage;
    } catch {
      message = null as unknown as WireClientMessage;
    }
    if (!message || typeof message !== 'object') {
      return connection.send(
        encode({ type: 'error', code: 'invalid_request', error: 'messages are JSON objects' }),
      );
    }
    switch (message.op) {
      case 'ping':
        return connection.send(encode({ type: 'pong' }));
      case 'subscribe':
        return message.channel === 'book'
          ? this.subscribeBook(connection, message.symbol)
          : this.subscribeAccount(connection);
      case 'place':
      case 'cancel':
      case 'replace':
        return this.orderRequest(connection, message);
      case 'unsubscribe':
        if (message.channel === 'book') {
          connection.books.delete(message.symbol);
        } else {
          connection.account = false;
        }
        return connection.send(
          encode({
            type: 'unsubscribed',
            channel: message.channel,
            ...('symbol' in message ? { symbol: message.symbol } : {}),
          }),
        );
      default:
        return connection.send(
          encode({ type: 'error', code: 'invalid_request', error: 'unknown op' }),
        );
    }
  }

  private orderRequest(connection: StreamConnection, request: WireOrderRequest): void {
    const id = typeof request.id === 'string' ? request.id : '';
    const respond = (status: number, body: unknown): void =>
      connection.send(encode({ type: 'response', id, status, body }));
    if (!id) {
      return respond(400, { error: 'id is required', code: 'invalid_request' });
    }
    const accountId = connection.accountId;
    if (!accountId) {
      return respond(401, { error: 'orders need a signed connection', code: 'unauthorized' });
    }
    const channel = {
      cut: () => this.dropConnection(connection),
      mute: () => connection.mute(),
    };
    this.orders
      .socketRequest({ venueId: connection.venue, accountId, channel }, request)
      .then(
        (reply) => respond(reply.status, reply.body ?? {}),
        (error: unknown) => {
          // The connection is gone: nobody to answer.
          if (error instanceof AnswerLost) {
            return;
          }
          const reply = failureReply(error);
          respond(reply.status, reply.body ?? {});
        },
      )
      .catch((error: unknown) => this.logger.error({ err: error }, 'socket order request failed'));
  }

  private subscribeBook(connection: StreamConnection, symbol: string): void {
    const market = this.world().venue(connection.venue).markets.get(symbol);
    if (!market) {
      return connection.send(
        encode({ type: 'error', code: 'unknown_market', error: `unknown market ${symbol}` }),
      );
    }
    connection.books.add(symbol);
    connection.send(encode({ type: 'subscribed', channel: 'book', symbol }));
    const depth = Number.MAX_SAFE_INTEGER;
    connection.send(
      encode({
        type: 'book_snapshot',
        symbol,
        seq: market.book.seq,
        bids: wireBookLevels(market, market.book.bids.top(depth)),
        asks: wireBookLevels(market, market.book.asks.top(depth)),
        ts_ms: Date.now(),
      }),
    );
  }

  private subscribeAccount(connection: StreamConnection): void {
    if (!connection.accountId) {
      return connection.send(
        encode({
          type: 'error',
          code: 'unauthorized',
          error: 'the account stream needs a signed connection',
        }),
      );
    }
    connection.account = true;
    connection.send(encode({ type: 'subscribed', channel: 'account' }));
  }

  private checkAlive(): void {
    for (const connection of this.connections) {
      if (!connection.alive) {
        connection.drop();
        this.connections.delete(connection);
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }
}

const encode = (message: WireServerMessage): string => JSON.stringify(message);

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
