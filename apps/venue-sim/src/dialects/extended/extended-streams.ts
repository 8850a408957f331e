import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { StreamConnection } from '../../api/stream-connection';
import type { MarketState } from '../../engine/market-state';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import type { DialectProfile } from '../dialect-profiles';
import { DialectSockets, refuseUpgrade } from '../dialect-sockets';
import type { ExtendedAccounts } from './extended-accounts';
import { EXTENDED, extendedOrder, extendedTrade, type ExtendedOrders } from './extended-orders';
import { acceptedOrder, isAccepted, type unplacedOrder } from './extended-order-views';
import { EXTENDED_READINGS } from './extended-readings';

const STREAM_BASE = `/dialects/${EXTENDED}/stream.extended.exchange/v1`;
const BOOK_LEVELS = 20;
/**
 * Under `stream_first=new_then_fate`, how long after an order's NEW frame its
 * next frames go: a client that took NEW for the fate would act on it first
 * (frames sent back to back reach ccxt in one read, where the later one wins).
 */
const NEW_TO_FATE_MS = 100;
/** Orders remembered as announced NEW (`stream_first=new_then_fate`); the oldest go first. */
const MAX_ANNOUNCED = 10_000;

interface ExtendedSocket {
  connection: StreamConnection;
  /** The market of an order book stream. */
  market?: string;
  /** The account stream's owner. */
  account?: { wallet: string; accountId: number };
  seq: number;
}

export interface ExtendedStreamDeps extends DialectDeps {
  accounts: ExtendedAccounts;
  extendedOrders: ExtendedOrders;
}

/**
 * Extended's streams: `<stream base>/orderbooks/<market>` (a SNAPSHOT of the
 * top levels at connect and on every change) and `<stream base>/account`
 * with the `X-Api-Key` header (ORDER and TRADE frames of the account), the
 * stream base being `/dialects/extended/stream.extended.exchange/v1`. Each
 * connection numbers its frames (`seq`). Frames go through the paper
 * stream's outbox (latency, never reordered). Under `stream_first=
 * new_then_fate` an order's first ORDER frame is `NEW` with nothing filled,
 * sent before anything else of it (its trades too), then its state.
 */
export class ExtendedStreams {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly sockets = new DialectSockets<ExtendedSocket>();
  private readonly profile: DialectProfile<typeof EXTENDED_READINGS>;
  /** Engine orders whose first update has been streamed. */
  private readonly announced = new Set<string>();

  constructor(private readonly deps: ExtendedStreamDeps) {
    this.profile = deps.profiles.of(EXTENDED, EXTENDED_READINGS);
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://venue-sim').pathname;
    if (!path.startsWith(STREAM_BASE)) {
      return refuseUpgrade(socket, 404, 'Not Found');
    }
    if (this.deps.faults.socketsBlocked(EXTENDED)) {
      return refuseUpgrade(socket, 503, 'Service Unavailable');
    }
    const rest = path.slice(STREAM_BASE.length);
    let entry: Omit<ExtendedSocket, 'connection'>;
    if (rest === '/account') {
      let account;
      try {
        account = this.deps.accounts.ofKey(request.headers['x-api-key']);
      } catch {
        return refuseUpgrade(socket, 401, 'Unauthorized');
      }
      if (this.deps.faults.walletSocketsBlocked(EXTENDED, account.wallet)) {
        return refuseUpgrade(socket, 503, 'Service Unavailable');
      }
      entry = { account: { wallet: account.wallet, accountId: account.accountId }, seq: 0 };
    } else if (rest.startsWith('/orderbooks/')) {
      const market = decodeURIComponent(rest.slice('/orderbooks/'.length));
      if (!this.venue().markets.has(market)) {
        return refuseUpgrade(socket, 404, 'Not Found');
      }
      entry = { market, seq: 0 };
    } else {
      return refuseUpgrade(socket, 404, 'Not Found');
    }
    this.server.handleUpgrade(request, socket, head, (ws) => {
      const connection = new StreamConnection(ws, EXTENDED, entry.account?.wallet, () =>
        this.deps.faults.latencyOf(EXTENDED),
      );
      const socketEntry: ExtendedSocket = { ...entry, connection };
      this.sockets.add(socketEntry);
      ws.on('pong', () => (connection.alive = true));
      ws.on('close', () => this.sockets.delete(socketEntry));
      ws.on('error', (error) =>
        this.deps.logger.debug({ venue: EXTENDED, err: error.message }, 'extended socket error'),
      );
      if (socketEntry.market) {
        this.sendBook(socketEntry, this.venue().market(socketEntry.market));
      }
    });
  }

  book(symbol: string): void {
    for (const entry of this.sockets) {
      if (entry.market === symbol) {
        this.sendBook(entry, this.venue().market(symbol));
      }
    }
  }

  order(order: EngineOrder): void {
    this.announce(order);
    for (const entry of this.accountSockets(order.accountId)) {
      this.frame(entry, 'ORDER', { orders: [this.view(entry, order)] });
    }
  }

  /** An order rejected before the book, to its account's streams (announced NEW first, by the reading). */
  orderState(wallet: string, order: ReturnType<typeof unplacedOrder>): void {
    for (const entry of this.accountSockets(wallet)) {
      if (this.profile.get('stream_first') === 'new_then_fate') {
        this.frame(entry, 'ORDER', { orders: [acceptedOrder(order)] });
        entry.connection.pauseFor(NEW_TO_FATE_MS);
      }
      this.frame(entry, 'ORDER', { orders: [order] });
    }
  }

  fill(fill: EngineFill): void {
    const order = this.venue().registry.orderById(fill.orderId);
    if (order) {
      this.announce(order);
    }
    for (const entry of this.accountSockets(fill.accountId)) {
      this.frame(entry, 'TRADE', {
        trades: [
          extendedTrade(
            this.venue(),
            fill,
            entry.account!.accountId,
            this.deps.extendedOrders.idOf(fill.orderId),
          ),
        ],
      });
    }
  }

  drop(accountId?: string): number {
    const account = accountId?.toLowerCase();
    return this.sockets.drop((entry) => account === undefined || entry.account?.wallet === account);
  }

  close(): void {
    this.sockets.close();
    this.server.close();
  }

  /**
   * `stream_first=new_then_fate`: an order's first update is `NEW` with
   * nothing filled; sent once, before its first event unless that event
   * shows just that (a post-only resting untouched).
   */
  private announce(order: EngineOrder): void {
    if (this.profile.get('stream_first') !== 'new_then_fate' || this.announced.has(order.orderId)) {
      return;
    }
    this.announced.add(order.orderId);
    if (this.announced.size > MAX_ANNOUNCED) {
      this.announced.delete(this.announced.values().next().value as string);
    }
    for (const entry of this.accountSockets(order.accountId)) {
      const view = this.view(entry, order);
      if (!isAccepted(view)) {
        this.frame(entry, 'ORDER', { orders: [acceptedOrder(view)] });
        entry.connection.pauseFor(NEW_TO_FATE_MS);
      }
    }
  }

  private view(entry: ExtendedSocket, order: EngineOrder) {
    return extendedOrder(
      this.venue(),
      order,
      entry.account!.accountId,
      this.deps.extendedOrders.notesOf(order),
    );
  }

  private *accountSockets(wallet: string): Iterable<ExtendedSocket> {
    for (const entry of this.sockets) {
      if (entry.account?.wallet === wallet) {
        yield entry;
      }
    }
  }

  private sendBook(entry: ExtendedSocket, market: MarketState): void {
    const side = (book: typeof market.book.bids) =>
      book.top(BOOK_LEVELS).map((level) => ({
        p: market.price.format(level.priceTicks),
        q: market.lot.format(level.totalLots),
      }));
    this.frame(entry, 'SNAPSHOT', {
      m: market.spec.symbol,
      b: side(market.book.bids),
      a: side(market.book.asks),
    });
  }

  private frame(entry: ExtendedSocket, type: string, data: unknown): void {
    entry.seq += 1;
    entry.connection.send(JSON.stringify({ type, data, ts: Date.now(), seq: entry.seq }));
  }

  private venue(): VenueEngine {
    return this.deps.world().venue(EXTENDED);
  }
}
