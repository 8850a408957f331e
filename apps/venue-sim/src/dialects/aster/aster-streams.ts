import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { StreamConnection } from '../../api/stream-connection';
import type { BookDelta } from '../../engine/order-book';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { DialectSockets, refuseUpgrade } from '../dialect-sockets';
import {
  accountUpdate,
  depthEvent,
  orderTradeUpdate,
  parseDepthStream,
  type Execution,
} from './aster-events';
import { answerSocketRequest, type AsterSocket } from './aster-socket-requests';
import { asterStatus, type AsterTif } from './aster-wire';
import type { ListenKeys } from './listen-keys';

export interface AsterStreamDeps extends DialectDeps {
  listenKeys: ListenKeys;
  tifOf: (order: EngineOrder) => AsterTif;
}

/**
 * Aster's futures WebSocket under `/dialects/aster`: market streams at
 * `/stream?streams=a/b` (combined: `{stream, data}`) or `/ws/<stream>` (raw),
 * live SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS / SET_PROPERTY /
 * GET_PROPERTY, and the user data stream at `/ws/<listenKey>`. Every message
 * goes through the paper stream's outbox (the venue's latency, never
 * reordered); refused handshakes and drops follow the venue's faults.
 *
 * Depth streams: `<symbol>@depth` (diff, every engine book change) and
 * `<symbol>@depth5|10|20` (top levels, at subscription and on every change;
 * Aster pushes them on a 100/250/500 ms cadence, the engine's changes come
 * at most once per step). Other stream names are accepted and send nothing.
 */
export class AsterStreams {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly sockets = new DialectSockets<AsterSocket>();
  /** Orders whose NEW went out (an IOC's is sent with its first trade or its expiry). */
  private readonly announced = new Set<string>();

  constructor(
    private readonly venueId: string,
    private readonly deps: AsterStreamDeps,
  ) {}

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://venue-sim');
    const path = url.pathname.slice(`/dialects/${this.venueId}`.length);
    if (this.deps.faults.socketsBlocked(this.venueId)) {
      return refuseUpgrade(socket, 503, 'Service Unavailable');
    }
    let streams: string[] = [];
    let combined = false;
    let listenKey: string | undefined;
    let accountId: string | undefined;
    if (path === '/stream') {
      combined = true;
      streams = (url.searchParams.get('streams') ?? '').split('/').filter((name) => name !== '');
    } else if (path.startsWith('/ws/')) {
      const name = decodeURIComponent(path.slice('/ws/'.length));
      accountId = this.deps.listenKeys.accountOf(name, Date.now());
      if (accountId) {
        listenKey = name;
      } else if (/^[a-z0-9!_]+@[a-zA-Z0-9@_]+$/.test(name)) {
        streams = [name];
      } else {
        return refuseUpgrade(socket, 400, 'Bad Request');
      }
      if (accountId && this.deps.faults.walletSocketsBlocked(this.venueId, accountId)) {
        return refuseUpgrade(socket, 503, 'Service Unavailable');
      }
    } else if (path !== '/ws') {
      return refuseUpgrade(socket, 404, 'Not Found');
    }
    this.server.handleUpgrade(request, socket, head, (ws) => {
      const connection = new StreamConnection(ws, this.venueId, accountId, () =>
        this.deps.faults.latencyOf(this.venueId),
      );
      const entry: AsterSocket = { connection, streams: new Set(), combined, listenKey };
      this.sockets.add(entry);
      ws.on('message', (data) =>
        answerSocketRequest(entry, data, (names) => this.subscribe(entry, names)),
      );
      ws.on('pong', () => (connection.alive = true));
      ws.on('close', () => this.sockets.delete(entry));
      ws.on('error', (error) =>
        this.deps.logger.debug({ venue: this.venueId, err: error.message }, 'aster socket error'),
      );
      this.subscribe(entry, streams);
    });
  }

  book(symbol: string, delta: BookDelta & { seq: number }, tsMs: number): void {
    const lower = symbol.toLowerCase();
    const texts = new Map<string, string>();
    for (const entry of this.sockets) {
      for (const name of entry.streams) {
        if (!name.startsWith(`${lower}@depth`)) {
          continue;
        }
        const stream = parseDepthStream(name);
        if (!stream) {
          continue;
        }
        let text = texts.get(`${entry.combined}:${name}`);
        if (text === undefined) {
          const market = this.venue().market(symbol);
          text = frame(entry.combined, name, depthEvent(market, stream, delta.seq, tsMs, delta));
          texts.set(`${entry.combined}:${name}`, text);
        }
        entry.connection.send(text);
      }
    }
  }

  order(order: EngineOrder): void {
    switch (order.status) {
      case 'open':
        this.announce(order);
        return;
      case 'canceled':
        this.announce(order);
        this.announced.delete(order.orderId);
        return this.toAccount(order, {
          type: asterStatus(order) === 'EXPIRED' ? 'EXPIRED' : 'CANCELED',
          status: asterStatus(order),
        });
      case 'partially_filled':
      case 'filled':
        // Reported by the fill's TRADE execution.
        if (order.status === 'filled') {
          this.announced.delete(order.orderId);
        }
        return;
    }
  }

  fill(fill: EngineFill): void {
    const order = this.venue().registry.orderById(fill.orderId);
    if (!order) {
      return;
    }
    this.announce(order);
    const status = order.filledLots === order.sizeLots ? 'FILLED' : 'PARTIALLY_FILLED';
    this.toAccount(order, { type: 'TRADE', status, fill });
    const update = JSON.stringify(accountUpdate(this.venue(), fill));
    for (const entry of this.userSockets(fill.accountId)) {
      entry.connection.send(update);
    }
  }

  /** Closes the user data sockets of a listenKey that was deleted. */
  closeListenKey(key: string): void {
    for (const entry of this.sockets) {
      if (entry.listenKey !== key) {
        continue;
      }
      entry.connection.socket.close();
      this.sockets.delete(entry);
    }
  }

  drop(accountId?: string): number {
    const account = accountId?.toLowerCase();
    return this.sockets.drop(
      (entry) => account === undefined || entry.connection.accountId === account,
    );
  }

  close(): void {
    this.sockets.close();
    this.server.close();
  }

  private announce(order: EngineOrder): void {
    if (this.announced.has(order.orderId)) {
      return;
    }
    this.announced.add(order.orderId);
    this.toAccount(order, { type: 'NEW', status: 'NEW' });
  }

  private toAccount(order: EngineOrder, execution: Execution): void {
    let text: string | undefined;
    for (const entry of this.userSockets(order.accountId)) {
      text ??= JSON.stringify(
        orderTradeUpdate(this.venue(), order, this.deps.tifOf(order), execution),
      );
      entry.connection.send(text);
    }
  }

  /** The account's user data sockets whose listenKey is still valid (an expired one is told once). */
  private userSockets(accountId: string): AsterSocket[] {
    const now = Date.now();
    const live: AsterSocket[] = [];
    for (const entry of this.sockets) {
      if (!entry.listenKey || entry.expired || entry.connection.accountId !== accountId) {
        continue;
      }
      if (this.deps.listenKeys.accountOf(entry.listenKey, now) === accountId) {
        live.push(entry);
        continue;
      }
      entry.expired = true;
      entry.connection.send(JSON.stringify({ e: 'listenKeyExpired', E: now }));
    }
    return live;
  }

  /** Adds streams; a top-levels depth stream sends the book as it is now. */
  private subscribe(entry: AsterSocket, names: string[]): void {
    for (const name of names) {
      entry.streams.add(name);
      const stream = parseDepthStream(name);
      const market = stream && this.venue().markets.get(stream.symbol);
      if (!stream || stream.levels === undefined || !market) {
        continue;
      }
      entry.connection.send(
        frame(entry.combined, name, depthEvent(market, stream, market.book.seq, Date.now())),
      );
    }
  }

  private venue(): VenueEngine {
    return this.deps.world().venue(this.venueId);
  }
}

const frame = (combined: boolean, stream: string, data: unknown): string =>
  JSON.stringify(combined ? { stream, data } : data);
