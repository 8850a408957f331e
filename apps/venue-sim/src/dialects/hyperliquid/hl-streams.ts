import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import Big from 'big.js';
import { WebSocketServer, type RawData } from 'ws';
import { AnswerLost, type HttpReply } from '../../api/http-kit';
import type { RequestChannel } from '../../api/order-entry';
import { StreamConnection } from '../../api/stream-connection';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { DialectSockets, refuseUpgrade } from '../dialect-sockets';
import type { HlExchange } from './hl-exchange';
import type { HlInfo } from './hl-info';
import type { HlState } from './hl-state';
import { subscriptionKey, subscriptionSnapshot } from './hl-subscriptions';
import * as wire from './hl-wire';

/** The venue closes a socket that sent nothing for this long (its docs: 60 s without a message). */
const IDLE_MS = 60_000;

/** One socket: its subscriptions (by their JSON key) and the users they name. */
interface HlSocket {
  connection: StreamConnection;
  /** Subscription key (`l2Book:BTC`, `userFills:0x…`, `orderUpdates:0x…`) → the subscription as sent. */
  subscriptions: Map<string, Record<string, unknown>>;
  users: Set<string>;
  lastMessageMs: number;
}

export interface HlStreamDeps extends DialectDeps {
  state: HlState;
  exchange: HlExchange;
  info: HlInfo;
}

/**
 * Hyperliquid's WebSocket at `/dialects/hyperliquid/ws`: `subscribe` /
 * `unsubscribe` of `l2Book` (a snapshot of the top 20 levels on every
 * change), `userFills` (a snapshot with `isSnapshot: true`, then each fill),
 * `orderUpdates` (every order's status change); `ping` answered `pong`; and
 * `post` requests (`info` reads and signed `action`s, answered on channel
 * `post` with the request's id). Messages go through the paper stream's
 * outbox (the venue's latency, never reordered); a blocked venue refuses the
 * handshake, a blocked wallet's user subscriptions close the socket, and a
 * drop of an account cuts every socket subscribed to one of its streams.
 */
export class HlStreams {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly sockets = new DialectSockets<HlSocket>(
    (entry, nowMs) => nowMs - entry.lastMessageMs > IDLE_MS,
  );

  constructor(private readonly deps: HlStreamDeps) {}

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://venue-sim').pathname;
    if (path !== '/dialects/hyperliquid/ws') {
      return refuseUpgrade(socket, 404, 'Not Found');
    }
    if (this.deps.faults.socketsBlocked('hyperliquid')) {
      return refuseUpgrade(socket, 503, 'Service Unavailable');
    }
    this.server.handleUpgrade(request, socket, head, (ws) => {
      const connection = new StreamConnection(ws, 'hyperliquid', undefined, () =>
        this.deps.faults.latencyOf('hyperliquid'),
      );
      const entry: HlSocket = {
        connection,
        subscriptions: new Map(),
        users: new Set(),
        lastMessageMs: Date.now(),
      };
      this.sockets.add(entry);
      ws.on('message', (data) => void this.onMessage(entry, data));
      ws.on('pong', () => (connection.alive = true));
      ws.on('close', () => this.sockets.delete(entry));
      ws.on('error', (error) =>
        this.deps.logger.debug(
          { venue: 'hyperliquid', err: error.message },
          'hyperliquid socket error',
        ),
      );
    });
  }

  book(symbol: string): void {
    let text: string | undefined;
    for (const entry of this.sockets) {
      if (!entry.subscriptions.has(`l2Book:${symbol}`)) {
        continue;
      }
      text ??= JSON.stringify({
        channel: 'l2Book',
        data: wire.l2Book(this.venue().market(symbol), Date.now()),
      });
      entry.connection.send(text);
    }
  }

  order(order: EngineOrder): void {
    // A partial fill goes out as the order still open with its smaller `sz`.
    let text: string | undefined;
    for (const entry of this.subscribers(`orderUpdates:${order.accountId}`)) {
      text ??= JSON.stringify({
        channel: 'orderUpdates',
        data: [wire.wsOrder(this.venue(), order, this.deps.state.tifOf(order))],
      });
      entry.connection.send(text);
    }
  }

  /** A fill, with the position it started from remembered for later reads. */
  fill(fill: EngineFill): void {
    const venue = this.venue();
    const market = venue.market(fill.symbol);
    const now = venue.accounts.get(fill.accountId)?.positions.get(fill.symbol)?.size ?? new Big(0);
    const size = market.lot.toBig(fill.lots);
    const start = fill.side === 'buy' ? now.minus(size) : now.plus(size);
    this.deps.state.startPositions.set(fill.fillId, start);
    let text: string | undefined;
    for (const entry of this.subscribers(`userFills:${fill.accountId}`)) {
      text ??= JSON.stringify({
        channel: 'userFills',
        data: {
          user: fill.accountId,
          fills: [
            wire.userFill(venue, fill, {
              startPosition: start,
              cloid: this.deps.state.fillsCarryCloid(),
            }),
          ],
        },
      });
      entry.connection.send(text);
    }
  }

  drop(accountId?: string): number {
    const account = accountId?.toLowerCase();
    return this.sockets.drop((entry) => account === undefined || entry.users.has(account));
  }

  close(): void {
    this.sockets.close();
    this.server.close();
  }

  private *subscribers(key: string): Iterable<HlSocket> {
    for (const entry of this.sockets) {
      if (entry.subscriptions.has(key)) {
        yield entry;
      }
    }
  }

  private async onMessage(entry: HlSocket, data: RawData): Promise<void> {
    entry.lastMessageMs = Date.now();
    const text = data.toString();
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return this.parseError(entry, text);
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) {
      return this.parseError(entry, text);
    }
    const { method, subscription, id, request } = message as Record<string, unknown>;
    switch (method) {
      case 'ping':
        return this.send(entry, { channel: 'pong' });
      case 'subscribe':
      case 'unsubscribe': {
        const key = subscriptionKey(subscription);
        if (!key) {
          return this.parseError(entry, text);
        }
        return method === 'subscribe'
          ? this.subscribe(entry, key, subscription as Record<string, unknown>)
          : this.unsubscribe(entry, key, subscription as Record<string, unknown>);
      }
      case 'post':
        return this.post(entry, id, request, text);
      default:
        return this.parseError(entry, text);
    }
  }

  private subscribe(entry: HlSocket, key: string, subscription: Record<string, unknown>): void {
    if (entry.subscriptions.has(key)) {
      return this.send(entry, {
        channel: 'error',
        data: `Already subscribed: ${JSON.stringify(subscription)}`,
      });
    }
    const user =
      typeof subscription['user'] === 'string' ? subscription['user'].toLowerCase() : undefined;
    if (user && this.deps.faults.walletSocketsBlocked('hyperliquid', user)) {
      this.sockets.cut(entry);
      return;
    }
    entry.subscriptions.set(key, subscription);
    if (user) {
      entry.users.add(user);
    }
    this.send(entry, {
      channel: 'subscriptionResponse',
      data: { method: 'subscribe', subscription },
    });
    const snapshot = subscriptionSnapshot(this.deps, this.venue(), subscription, user);
    if (snapshot) {
      this.send(entry, snapshot);
    }
  }

  private unsubscribe(entry: HlSocket, key: string, subscription: Record<string, unknown>): void {
    if (!entry.subscriptions.delete(key)) {
      return this.send(entry, {
        channel: 'error',
        data: `Already unsubscribed: ${JSON.stringify(subscription)}`,
      });
    }
    this.send(entry, {
      channel: 'subscriptionResponse',
      data: { method: 'unsubscribe', subscription },
    });
  }

  /** A `post`: an info read or a signed action, answered on channel `post` with its id. */
  private async post(entry: HlSocket, id: unknown, request: unknown, text: string): Promise<void> {
    if (!Number.isSafeInteger(id) || !request || typeof request !== 'object') {
      return this.parseError(entry, text);
    }
    const { type, payload } = request as { type?: unknown; payload?: unknown };
    if (type !== 'info' && type !== 'action') {
      return this.parseError(entry, text);
    }
    const channel: RequestChannel = {
      cut: () => {
        this.sockets.cut(entry);
      },
      mute: () => entry.connection.mute(),
    };
    let reply: HttpReply;
    try {
      reply =
        type === 'info'
          ? await this.deps.info.handle(payload, channel)
          : await this.deps.exchange.handle(payload, channel);
    } catch (error) {
      if (error instanceof AnswerLost) {
        return;
      }
      throw error;
    }
    if (reply.status !== 200) {
      return this.send(entry, {
        channel: 'post',
        data: { id, response: { type: 'error', payload: reply.body ?? `HTTP ${reply.status}` } },
      });
    }
    this.send(entry, { channel: 'post', data: { id, response: { type, payload: reply.body } } });
  }

  private parseError(entry: HlSocket, text: string): void {
    this.send(entry, {
      channel: 'error',
      data: `Error parsing JSON into valid websocket request: ${text}`,
    });
  }

  private send(entry: HlSocket, message: unknown): void {
    entry.connection.send(JSON.stringify(message));
  }

  private venue(): VenueEngine {
    return this.deps.world().venue('hyperliquid');
  }
}
