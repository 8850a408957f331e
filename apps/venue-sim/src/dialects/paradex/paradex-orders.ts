import { HttpFailure, type HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { MarketState } from '../../engine/market-state';
import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import type { DialectProfile } from '../dialect-profiles';
import { engineOrderId, numericId } from '../engine-ids';
import { engineRefusalOf } from '../engine-refusal';
import { ParadexError, type ParadexAuth } from './paradex-auth';
import { ParadexCancelQueue } from './paradex-cancel-queue';
import { orderHistory } from './paradex-order-history';
import {
  checkOrderSignature,
  parseOrder,
  pastReceiveWindow,
  refusalOf,
  type ParsedOrder,
} from './paradex-order-request';
import {
  closedUnplaced,
  paradexFill,
  paradexOrder,
  queuedOrder,
  type ClosedUnplaced,
  type OrderNotes,
} from './paradex-order-views';
import { PARADEX_READINGS, POST_ONLY_CANCEL_WORD } from './paradex-readings';

export { paradexOrder, type OrderNotes } from './paradex-order-views';

export const PARADEX = 'paradex';

const MAX_REMEMBERED = 10_000;

/**
 * Paradex's orders over the engine. As on the venue, an order request is
 * queued: `POST /v1/orders` answers 201 with the order `NEW`, and its fate
 * (resting `OPEN`, filled or canceled `CLOSED` with a `cancel_reason`) is
 * what `GET /v1/orders/{id}` and the `orders` channel say next; a cancel
 * answers 204 and the order is `CLOSED` with `USER_CANCELED` after
 * (paradex-cancel-queue.ts: a fill can land in between). Each
 * order's StarkNet signature is checked against the account's stark key
 * (typed data `Order`: timestamp, market, side 1/2, type, size and price × 10⁸).
 */
export class ParadexOrders {
  private readonly notes = new Map<string, OrderNotes>();
  private readonly unplaced = new Map<string, ClosedUnplaced>();
  private unplacedSeq = 0;
  private readonly profile: DialectProfile<typeof PARADEX_READINGS>;
  /** Cancels answered 204 and not yet acted on. */
  readonly cancels: ParadexCancelQueue;

  /** Told of an order the queue closed before the book (the engine never held it). */
  onUnplaced: (account: string, market: string, order: unknown) => void = () => undefined;

  constructor(
    private readonly deps: DialectDeps,
    private readonly auth: ParadexAuth,
  ) {
    this.profile = deps.profiles.of(PARADEX, PARADEX_READINGS);
    this.cancels = new ParadexCancelQueue(
      () => deps.world().venue(PARADEX),
      () => deps.world().frozen.has(PARADEX),
      (venue, account, orderId) => this.cancelNow(venue, account, orderId),
    );
  }

  notesOf(order: EngineOrder): OrderNotes {
    return (
      this.notes.get(order.orderId) ?? { instruction: order.type === 'ioc' ? 'IOC' : 'POST_ONLY' }
    );
  }

  async place(
    request: SignedRequest,
    account: string,
    body: Record<string, unknown>,
  ): Promise<HttpReply> {
    const order = parseOrder(body);
    checkOrderSignature(this.auth, account, order, body);
    const kind = order.instruction === 'IOC' ? 'ioc' : 'post_only';
    const fields = { type: kind, expires_at_ms: order.expiresAtMs };
    return this.deps.orders
      .execute(request, { op: 'place', fields }, (venue) => this.enter(venue, request, order, kind))
      .catch((error: unknown) => {
        throw pastReceiveWindow(error, order.expiresAtMs);
      });
  }

  /** The order in the engine: queued, then resting, filled or closed (the answer is NEW either way). */
  private enter(
    venue: VenueEngine,
    request: SignedRequest,
    order: ParsedOrder,
    kind: 'ioc' | 'post_only',
  ): HttpReply {
    this.cancels.settle(venue);
    const market = this.market(venue, order.market);
    const queued = {
      id: '',
      account: request.accountId,
      market: order.market,
      side: order.side,
      size: order.size,
      price: order.price,
      clientId: order.clientId,
      instruction: order.instruction,
      createdAtMs: Date.now(),
    };
    try {
      const outcome = venue.desk.place(request.accountId, {
        symbol: market.spec.symbol,
        side: order.side === 'BUY' ? 'buy' : 'sell',
        type: kind,
        price: order.price,
        size: order.size,
        clientOrderId: order.clientId || this.anonymousId(),
      });
      if (outcome.duplicate) {
        throw new ParadexError(400, 'DUPLICATED_CLIENT_ID', 'duplicated client id');
      }
      const cancelReason =
        kind === 'ioc' && outcome.order.status === 'canceled' ? 'IOC_CANCEL' : undefined;
      this.notes.set(outcome.order.orderId, {
        instruction: order.instruction,
        ...(cancelReason ? { cancelReason } : {}),
      });
      queued.id = String(numericId(outcome.order.orderId));
    } catch (error) {
      const reason = this.closedReason(error);
      if (reason === undefined) {
        throw refusalOf(error);
      }
      // Queued, then closed by the matching engine: the answer is still NEW.
      queued.id = this.rememberUnplaced({ ...queued, cancelReason: reason });
      const closed = this.unplaced.get(queued.id)!;
      this.onUnplaced(request.accountId, order.market, closedUnplaced(closed));
    }
    return { status: 201, body: queuedOrder(queued) };
  }

  /** DELETE /v1/orders/{id} or /by_client_id/{client_id}: queued (204), closed after. */
  cancel(request: SignedRequest, target: { id?: string; clientId?: string }): Promise<HttpReply> {
    return this.deps.orders.execute(request, { op: 'cancel', fields: {} }, (venue) => {
      this.cancels.settle(venue);
      const order = this.find(venue, request.accountId, target);
      if (!order) {
        throw this.notToCancel(request.accountId, target);
      }
      if (order.status !== 'open' && order.status !== 'partially_filled') {
        throw new ParadexError(400, 'ORDER_IS_CLOSED', 'order is closed');
      }
      this.cancels.add(request.accountId, order.orderId);
      return { status: 204 };
    });
  }

  /** Why there is no order to cancel: closed before the book, or unknown. */
  private notToCancel(account: string, target: { id?: string; clientId?: string }): ParadexError {
    const unplaced =
      target.clientId !== undefined
        ? this.unplacedByClient(account, target.clientId)
        : this.unplaced.get(target.id ?? '');
    if (unplaced) {
      return new ParadexError(400, 'ORDER_IS_CLOSED', 'order is closed');
    }
    return target.clientId !== undefined
      ? new ParadexError(400, 'CLIENT_ORDER_ID_NOT_FOUND', 'client order id not found')
      : new ParadexError(400, 'ORDER_ID_NOT_FOUND', 'order id not found');
  }

  /** A queued cancel reaching the engine: the order closes, unless it closed meanwhile. */
  private cancelNow(venue: VenueEngine, account: string, orderId: string): void {
    const order = venue.registry.get(account, orderId);
    if (!order || (order.status !== 'open' && order.status !== 'partially_filled')) {
      return;
    }
    this.notes.set(order.orderId, { ...this.notesOf(order), cancelReason: 'USER_CANCELED' });
    venue.desk.cancel(account, { orderId: order.orderId });
  }

  /**
   * GET /v1/orders/{id} or /by_client_id/{client_id}. By client id, the venue
   * finds open orders only (`client_id_lookup`, documented `open_only`): a
   * closed one is answered as an unknown one.
   */
  lookup(venue: VenueEngine, account: string, target: { id?: string; clientId?: string }) {
    const openOnly =
      target.clientId !== undefined && this.profile.get('client_id_lookup') === 'open_only';
    const order = this.find(venue, account, target);
    if (order && !(openOnly && !isOpen(order))) {
      return paradexOrder(venue, order, this.notesOf(order));
    }
    const unplaced =
      target.id !== undefined
        ? this.unplaced.get(target.id)
        : this.unplacedByClient(account, target.clientId ?? '');
    if (!order && !openOnly && unplaced && unplaced.account === account) {
      return closedUnplaced(unplaced);
    }
    throw target.clientId !== undefined
      ? new ParadexError(404, 'CLIENT_ORDER_ID_NOT_FOUND', 'client order id not found')
      : new ParadexError(404, 'ORDER_ID_NOT_FOUND', 'order id not found');
  }

  /** GET /v1/orders-history: every order of the account, open and closed, filtered. */
  history(venue: VenueEngine, account: string, query: URLSearchParams) {
    const orders = [
      ...venue.registry
        .ordersOf(account)
        .map((order) => paradexOrder(venue, order, this.notesOf(order))),
      ...[...this.unplaced.values()]
        .filter((order) => order.account === account)
        .map((order) => closedUnplaced(order)),
    ];
    return orderHistory(orders, query);
  }

  /** GET /v1/orders: the account's open orders (of one market when given). */
  open(venue: VenueEngine, account: string, market: string | null) {
    return venue.registry
      .open(account)
      .filter((order) => market === null || order.symbol === market)
      .sort((a, b) => a.createdAtMs - b.createdAtMs)
      .map((order) => paradexOrder(venue, order, this.notesOf(order)));
  }

  /** GET /v1/fills: the account's fills from `start_at` (ms), oldest first. */
  fills(venue: VenueEngine, account: string, query: URLSearchParams) {
    const market = query.get('market');
    const start = Number(query.get('start_at') ?? 0);
    const end = Number(query.get('end_at') ?? Date.now());
    const size = Math.min(Number(query.get('page_size') ?? 1000), 5000);
    if (![start, end, size].every(Number.isSafeInteger)) {
      throw new ParadexError(400, 'INVALID_REQUEST_PARAMETER', 'invalid request parameter');
    }
    return venue.registry
      .fillsSince(account, start)
      .filter((fill) => fill.tsMs <= end && (market === null || fill.symbol === market))
      .slice(0, size)
      .map((fill) => paradexFill(venue, fill));
  }

  private find(
    venue: VenueEngine,
    account: string,
    target: { id?: string; clientId?: string },
  ): EngineOrder | undefined {
    if (target.clientId !== undefined) {
      return venue.registry.byClientOrderId(account, target.clientId);
    }
    const engineId = target.id !== undefined ? engineOrderId(target.id) : undefined;
    return engineId ? venue.registry.get(account, engineId) : undefined;
  }

  private unplacedByClient(account: string, clientId: string): ClosedUnplaced | undefined {
    for (const order of this.unplaced.values()) {
      if (order.account === account && order.clientId === clientId && clientId !== '') {
        return order;
      }
    }
    return undefined;
  }

  private rememberUnplaced(order: Omit<ClosedUnplaced, 'id'> & { id: string }): string {
    this.unplacedSeq += 1;
    // Outside the engine's id range (epoch × 10⁹ + seq): 9 × 10¹⁴ upwards.
    const id = String(900_000_000_000_000 + this.unplacedSeq);
    this.unplaced.set(id, { ...order, id });
    if (this.unplaced.size > MAX_REMEMBERED) {
      this.unplaced.delete(this.unplaced.keys().next().value as string);
    }
    return id;
  }

  /** Why the engine closed a queued order at once, or undefined for a refusal of the request. */
  private closedReason(error: unknown): string | undefined {
    const engine = error instanceof HttpFailure ? engineRefusalOf(error) : undefined;
    const code = engine?.code ?? (error as { code?: unknown }).code;
    if (code === 'post_only_would_cross') {
      return POST_ONLY_CANCEL_WORD[this.profile.get('cancel_reason_words')];
    }
    if (code === 'insufficient_margin') {
      return 'NOT_ENOUGH_MARGIN';
    }
    return undefined;
  }

  private anonymousId(): string {
    this.unplacedSeq += 1;
    return `pdx-${Date.now().toString(36)}-${this.unplacedSeq}`;
  }

  private market(venue: VenueEngine, symbol: string): MarketState {
    const market = venue.markets.get(symbol);
    if (!market) {
      throw new ParadexError(400, 'MARKET_NOT_FOUND', `market ${symbol} not found`);
    }
    return market;
  }
}

const isOpen = (order: EngineOrder): boolean =>
  order.status === 'open' || order.status === 'partially_filled';
