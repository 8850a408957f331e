import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData } from 'ws';
import { StreamConnection } from '../../api/stream-connection';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { DialectSockets, refuseUpgrade } from '../dialect-sockets';
import { LIGHTER, LighterError, type LighterAccounts } from './lighter-accounts';
import { marketAt, marketIndexOf } from './lighter-markets';
import {
  bookFrame,
  levelsOf,
  nextLevels,
  wireLevels,
  type BookSubscription,
} from './lighter-book-frames';
import { lighterTrade } from './lighter-order-views';
import type { LighterOrders } from './lighter-orders';

const STREAM_PATH = `/dialects/${LIGHTER}/stream`;
/** Recent trades a new account trade subscription starts with. */
const TRADE_SNAPSHOT = 50;

interface LighterSocket {
  connection: StreamConnection;
  books: Map<number, BookSubscription>;
  /** The account whose orders (with an auth token) and trades this socket follows. */
  orders?: { index: number; wallet: string };
  trades?: { index: number; wallet: string };
  offset: number;
}

export interface LighterStreamDeps extends DialectDeps {
  accounts: LighterAccounts;
  lighterOrders: LighterOrders;
}

/**
 * Lighter's WebSocket at `/dialects/lighter/stream`: `{type: "subscribe",
 * channel}` for `order_book/<market>` (a snapshot, then the changed levels,
 * size 0 for a level gone), `account_all_orders/<account>` (with `auth`: the
 * signer's token) and `account_all_trades/<account>`. Frames carry the
 * channel as `name:<id>`. Frames go through the paper stream's outbox
 * (latency, never reordered).
 */
export class LighterStreams {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly sockets = new DialectSockets<LighterSocket>();

  constructor(private readonly deps: LighterStreamDeps) {}

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://venue-sim').pathname;
    if (path !== STREAM_PATH) {
      return refuseUpgrade(socket, 404, 'Not Found');
    }
    if (this.deps.faults.socketsBlocked(LIGHTER)) {
      return refuseUpgrade(socket, 503, 'Service Unavailable');
    }
    this.server.handleUpgrade(request, socket, head, (ws) => {
      const entry: LighterSocket = {
        connection: new StreamConnection(ws, LIGHTER, undefined, () =>
          this.deps.faults.latencyOf(LIGHTER),
        ),
        books: new Map(),
        offset: 0,
      };
      this.sockets.add(entry);
      ws.on('pong', () => (entry.connection.alive = true));
      ws.on('close', () => this.sockets.delete(entry));
      ws.on('error', (error) =>
        this.deps.logger.debug({ venue: LIGHTER, err: error.message }, 'lighter socket error'),
      );
      ws.on('message', (data) => this.onMessage(entry, data));
      this.send(entry, { session_id: randomUUID(), type: 'connected' });
    });
  }

  book(symbol: string): void {
    for (const entry of this.sockets) {
      for (const subscription of entry.books.values()) {
        if (subscription.market.spec.symbol === symbol) {
          this.sendBookChanges(entry, subscription);
        }
      }
    }
  }

  order(order: EngineOrder): void {
    for (const entry of this.sockets) {
      if (entry.orders?.wallet !== order.accountId) {
        continue;
      }
      const view = this.deps.lighterOrders.view(this.venue(), order, entry.orders.index);
      this.sendOrders(entry, entry.orders.index, view.market_index, [view]);
    }
  }

  /** An order closed before the book, to its account's order streams. */
  orderState(wallet: string, marketIndex: number, order: unknown): void {
    for (const entry of this.sockets) {
      if (entry.orders?.wallet === wallet) {
        this.sendOrders(entry, entry.orders.index, marketIndex, [order]);
      }
    }
  }

  fill(fill: EngineFill): void {
    for (const entry of this.sockets) {
      if (entry.trades?.wallet !== fill.accountId) {
        continue;
      }
      const trade = lighterTrade(this.venue(), fill, entry.trades.index);
      this.send(entry, {
        channel: `account_all_trades:${entry.trades.index}`,
        trades: { [trade.market_id]: [trade] },
        type: 'update/account_all_trades',
      });
    }
  }

  drop(accountId?: string): number {
    const wallet = accountId?.toLowerCase();
    return this.sockets.drop(
      (entry) =>
        wallet === undefined || entry.orders?.wallet === wallet || entry.trades?.wallet === wallet,
    );
  }

  close(): void {
    this.sockets.close();
    this.server.close();
  }

  private onMessage(entry: LighterSocket, data: RawData): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(data.toString()) as Record<string, unknown>;
    } catch {
      return this.error(entry, new LighterError(400, 30005, 'Invalid Message'));
    }
    if (message['type'] === 'pong' || message['type'] === 'ping') {
      return;
    }
    if (message['type'] !== 'subscribe' && message['type'] !== 'unsubscribe') {
      return this.error(entry, new LighterError(400, 30005, 'Invalid Type'));
    }
    const channel = String(message['channel'] ?? '');
    try {
      if (message['type'] === 'unsubscribe') {
        return this.unsubscribe(entry, channel);
      }
      this.subscribe(entry, channel, message['auth']);
    } catch (error) {
      if (error instanceof LighterError) {
        return this.error(entry, error);
      }
      throw error;
    }
  }

  private subscribe(entry: LighterSocket, channel: string, auth: unknown): void {
    const [name, id] = channel.split('/');
    if (name === 'order_book') {
      return this.subscribeBook(entry, id);
    }
    if (name === 'account_all_orders') {
      return this.subscribeOrders(entry, id, auth);
    }
    if (name === 'account_all_trades') {
      return this.subscribeTrades(entry, id);
    }
    throw new LighterError(400, 30004, 'Invalid Channel');
  }

  /** `order_book/<market>`: the top levels now, then each change. */
  private subscribeBook(entry: LighterSocket, id: string | undefined): void {
    const market = marketAt(this.venue(), Number(id));
    if (!market || id === undefined || id === '') {
      throw new LighterError(400, 30004, 'Invalid Channel');
    }
    const subscription: BookSubscription = {
      market,
      bids: levelsOf(market, 'bids'),
      asks: levelsOf(market, 'asks'),
    };
    entry.books.set(Number(id), subscription);
    entry.offset += 1;
    this.send(
      entry,
      bookFrame(id, entry.offset, wireLevels(subscription), 'subscribed/order_book'),
    );
  }

  /** `account_all_orders/<account>`: only with the account's auth token. */
  private subscribeOrders(entry: LighterSocket, id: string | undefined, auth: unknown): void {
    const account = this.deps.accounts.ofAuthToken(typeof auth === 'string' ? auth : undefined);
    if (String(account.index) !== id) {
      throw new LighterError(403, 20013, 'invalid auth token');
    }
    this.checkOpen(account.wallet);
    entry.orders = { index: account.index, wallet: account.wallet };
    this.send(entry, {
      channel: `account_all_orders:${id}`,
      orders: {},
      type: 'subscribed/account_all_orders',
    });
  }

  /** `account_all_trades/<account>`: the recent trades by market, then each new one. */
  private subscribeTrades(entry: LighterSocket, id: string | undefined): void {
    const account = this.deps.accounts.ofIndex(id);
    this.checkOpen(account.wallet);
    entry.trades = { index: account.index, wallet: account.wallet };
    const trades: Record<string, unknown[]> = {};
    for (const fill of this.venue().registry.fillsSince(account.wallet, 0).slice(-TRADE_SNAPSHOT)) {
      const trade = lighterTrade(this.venue(), fill, account.index);
      (trades[trade.market_id] ??= []).push(trade);
    }
    this.send(entry, {
      channel: `account_all_trades:${id}`,
      trades,
      type: 'subscribed/account_all_trades',
    });
  }

  private unsubscribe(entry: LighterSocket, channel: string): void {
    const [name, id] = channel.split('/');
    if (name === 'order_book') {
      entry.books.delete(Number(id));
    } else if (name === 'account_all_orders') {
      delete entry.orders;
    } else if (name === 'account_all_trades') {
      delete entry.trades;
    }
    this.send(entry, { type: 'unsubscribed', channel: `${name}:${id}` });
  }

  /** A wallet whose sockets are blocked (`drop-ws` for one account) cannot subscribe. */
  private checkOpen(wallet: string): void {
    if (this.deps.faults.walletSocketsBlocked(LIGHTER, wallet)) {
      throw new LighterError(503, 30006, 'Service Unavailable');
    }
  }

  private sendBookChanges(entry: LighterSocket, subscription: BookSubscription): void {
    const changed = nextLevels(subscription);
    if (!changed) {
      return;
    }
    entry.offset += 1;
    const id = marketIndexOf(this.venue(), subscription.market.spec.symbol);
    this.send(entry, bookFrame(id, entry.offset, changed, 'update/order_book'));
  }

  private sendOrders(
    entry: LighterSocket,
    accountIndex: number,
    marketIndex: number,
    orders: unknown[],
  ): void {
    this.send(entry, {
      channel: `account_all_orders:${accountIndex}`,
      orders: { [marketIndex]: orders },
      type: 'update/account_all_orders',
    });
  }

  private error(entry: LighterSocket, error: LighterError): void {
    this.send(entry, { error: { code: error.code, message: error.message } });
  }

  private send(entry: LighterSocket, frame: unknown): void {
    entry.connection.send(JSON.stringify(frame));
  }

  private venue(): VenueEngine {
    return this.deps.world().venue(LIGHTER);
  }
}
