import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData } from 'ws';
import { StreamConnection } from '../../api/stream-connection';
import type { MarketState } from '../../engine/market-state';
import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { DialectSockets, refuseUpgrade } from '../dialect-sockets';
import type { ParadexAuth } from './paradex-auth';
import { ParadexError } from './paradex-auth';
import { PARADEX, paradexOrder, type OrderNotes } from './paradex-orders';

const BOOK_CHANNEL = /^order_book\.([A-Za-z0-9-]+)\.snapshot@(\d+)@(\d+)ms$/;
const ORDERS_CHANNEL = /^orders\.([A-Za-z0-9-]+)$/;

interface ParadexSocket {
  connection: StreamConnection;
  /** The account its `auth` proved, once it did. */
  account?: string;
  channels: Set<string>;
}

export interface ParadexStreamDeps extends DialectDeps {
  auth: ParadexAuth;
  notesOf: (order: EngineOrder) => OrderNotes;
}

/**
 * Paradex's JSON-RPC WebSocket at `/dialects/paradex/v1`: `auth` with the
 * REST bearer token, `subscribe` to `order_book.<market>.snapshot@15@100ms`
 * (a full snapshot of the top levels on subscribing and on every change) and,
 * once authenticated, `orders.<market>` or `orders.ALL` (every state of the
 * account's orders). Notifications are `{method: "subscription", params:
 * {channel, data}}`. Messages go through the paper stream's outbox (latency,
 * never reordered); a blocked venue refuses the handshake and a drop of an
 * account cuts its authenticated sockets.
 */
export class ParadexStreams {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly sockets = new DialectSockets<ParadexSocket>();

  constructor(private readonly deps: ParadexStreamDeps) {}

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://venue-sim').pathname;
    if (path !== `/dialects/${PARADEX}/v1`) {
      return refuseUpgrade(socket, 404, 'Not Found');
    }
    if (this.deps.faults.socketsBlocked(PARADEX)) {
      return refuseUpgrade(socket, 503, 'Service Unavailable');
    }
    this.server.handleUpgrade(request, socket, head, (ws) => {
      const connection = new StreamConnection(ws, PARADEX, undefined, () =>
        this.deps.faults.latencyOf(PARADEX),
      );
      const entry: ParadexSocket = { connection, channels: new Set() };
      this.sockets.add(entry);
      ws.on('message', (data) => this.onMessage(entry, data));
      ws.on('pong', () => (connection.alive = true));
      ws.on('close', () => this.sockets.delete(entry));
      ws.on('error', (error) =>
        this.deps.logger.debug({ venue: PARADEX, err: error.message }, 'paradex socket error'),
      );
    });
  }

  book(symbol: string): void {
    let data: ReturnType<typeof bookSnapshot> | undefined;
    for (const entry of this.sockets) {
      for (const channel of entry.channels) {
        if (!channel.startsWith(`order_book.${symbol}.`)) {
          continue;
        }
        data ??= bookSnapshot(this.venue().market(symbol));
        entry.connection.send(JSON.stringify(notification(channel, data)));
      }
    }
  }

  /** An engine order's new state, to the account's `orders` subscribers. */
  order(order: EngineOrder): void {
    this.orderState(
      order.accountId,
      order.symbol,
      paradexOrder(this.venue(), order, this.deps.notesOf(order)),
    );
  }

  /** An order state the engine never held (queued, then closed before the book). */
  orderState(account: string, market: string, data: unknown): void {
    for (const entry of this.sockets) {
      if (entry.account !== account) {
        continue;
      }
      for (const channel of [`orders.${market}`, 'orders.ALL']) {
        if (entry.channels.has(channel)) {
          entry.connection.send(JSON.stringify(notification(channel, data)));
        }
      }
    }
  }

  drop(accountId?: string): number {
    const account = accountId?.toLowerCase();
    return this.sockets.drop((entry) => account === undefined || entry.account === account);
  }

  close(): void {
    this.sockets.close();
    this.server.close();
  }

  private onMessage(entry: ParadexSocket, data: RawData): void {
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return this.error(entry, null, -32700, 'Parse error');
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) {
      return this.error(entry, null, -32600, 'Invalid request');
    }
    const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
    const requestId = typeof id === 'number' || typeof id === 'string' ? id : null;
    const args = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
    switch (method) {
      case 'auth':
        return this.authenticate(entry, requestId, args['bearer']);
      case 'subscribe':
        return this.subscribe(entry, requestId, args['channel']);
      case 'unsubscribe':
        if (typeof args['channel'] === 'string') {
          entry.channels.delete(args['channel']);
        }
        return this.reply(entry, requestId, { channel: args['channel'] });
      default:
        return this.error(entry, requestId, -32601, 'Method not found');
    }
  }

  private authenticate(entry: ParadexSocket, id: unknown, bearer: unknown): void {
    try {
      const account = this.deps.auth.accountOf(`Bearer ${String(bearer)}`, Date.now());
      const wallet = this.deps.auth.walletOf(account);
      const accountId = this.deps.funding.account(PARADEX, wallet) ?? wallet;
      if (this.deps.faults.walletSocketsBlocked(PARADEX, accountId)) {
        this.sockets.cut(entry);
        return;
      }
      entry.account = accountId;
      this.reply(entry, id, {});
    } catch (error) {
      const code = error instanceof ParadexError ? Number(error.code) || 40111 : 40111;
      this.error(entry, id, code, 'invalid bearer jwt');
    }
  }

  private subscribe(entry: ParadexSocket, id: unknown, channel: unknown): void {
    if (typeof channel !== 'string') {
      return this.error(entry, id, -32602, 'Invalid params');
    }
    const book = BOOK_CHANNEL.exec(channel);
    const orders = ORDERS_CHANNEL.exec(channel);
    if (orders) {
      if (!entry.account) {
        return this.error(entry, id, 40110, 'unauthorized: auth first');
      }
      entry.channels.add(channel);
      return this.reply(entry, id, { channel });
    }
    const market = book ? this.venue().markets.get(book[1]) : undefined;
    if (!book || !market) {
      return this.error(entry, id, -32602, `Invalid channel ${channel}`);
    }
    entry.channels.add(channel);
    this.reply(entry, id, { channel });
    entry.connection.send(JSON.stringify(notification(channel, bookSnapshot(market))));
  }

  private reply(entry: ParadexSocket, id: unknown, result: unknown): void {
    entry.connection.send(JSON.stringify({ jsonrpc: '2.0', id, result, usIn: Date.now() * 1000 }));
  }

  private error(entry: ParadexSocket, id: unknown, code: number, message: string): void {
    entry.connection.send(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
  }

  private venue(): VenueEngine {
    return this.deps.world().venue(PARADEX);
  }
}

const notification = (channel: string, data: unknown) => ({
  jsonrpc: '2.0',
  method: 'subscription',
  params: { channel, data },
});

/** A full snapshot of the top 15 levels (update_type `s`). */
function bookSnapshot(market: MarketState) {
  const side = (book: typeof market.book.bids, name: 'BUY' | 'SELL') =>
    book.top(15).map((level) => ({
      side: name,
      price: market.price.format(level.priceTicks),
      size: market.lot.format(level.totalLots),
    }));
  return {
    seq_no: market.book.seq,
    market: market.spec.symbol,
    last_updated_at: Date.now(),
    update_type: 's',
    inserts: [...side(market.book.bids, 'BUY'), ...side(market.book.asks, 'SELL')],
    updates: [],
    deletes: [],
  };
}
