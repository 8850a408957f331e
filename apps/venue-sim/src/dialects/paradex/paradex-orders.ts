import { HttpFailure, type HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { MarketState } from '../../engine/market-state';
import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { engineOrderId, numericId } from '../engine-ids';
import { engineRefusalOf } from '../engine-refusal';
import { ParadexError, type ParadexAuth } from './paradex-auth';
import { checkOrderSignature, parseOrder } from './paradex-order-request';
import {
  closedUnplaced,
  paradexFill,
  paradexOrder,
  queuedOrder,
  type ClosedUnplaced,
  type OrderNotes,
} from './paradex-order-views';

export { paradexOrder, type OrderNotes } from './paradex-order-views';

export const PARADEX = 'paradex';

const MAX_REMEMBERED = 10_000;

/**
 * Paradex's orders over the engine. As on the venue, an order request is
 * queued: `POST /v1/orders` answers 201 with the order `NEW`, and its fate
 * (resting `OPEN`, filled or canceled `CLOSED` with a `cancel_reason`) is
 * what `GET /v1/orders/{id}` and the `orders` channel say next; a cancel
 * answers 204 and the order is `CLOSED` with `USER_CANCELED` after. Each
 * order's StarkNet signature is checked against the account's stark key
 * (typed data `Order`: timestamp, market, side 1/2, type, size and price × 10⁸).
 */
export class ParadexOrders {
  private readonly notes = new Map<string, OrderNotes>();
  private readonly unplaced = new Map<string, ClosedUnplaced>();
  private unplacedSeq = 0;

  /** Told of an order the queue closed before the book (the engine never held it). */
  onUnplaced: (account: string, market: string, order: unknown) => void = () => undefined;

  constructor(
    private readonly deps: DialectDeps,
    private readonly auth: ParadexAuth,
  ) {}

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
    return this.deps.orders.execute(request, { op: 'place', fields: { type: kind } }, (venue) => {
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
    });
  }

  /** DELETE /v1/orders/{id} or /by_client_id/{client_id}: queued (204), closed after. */
  cancel(request: SignedRequest, target: { id?: string; clientId?: string }): Promise<HttpReply> {
    return this.deps.orders.execute(request, { op: 'cancel', fields: {} }, (venue) => {
      const order = this.find(venue, request.accountId, target);
      if (!order) {
        if (
          target.clientId !== undefined &&
          this.unplacedByClient(request.accountId, target.clientId)
        ) {
          throw new ParadexError(400, 'ORDER_IS_CLOSED', 'order is closed');
        }
        if (target.id !== undefined && this.unplaced.has(target.id)) {
          throw new ParadexError(400, 'ORDER_IS_CLOSED', 'order is closed');
        }
        throw target.clientId !== undefined
          ? new ParadexError(400, 'CLIENT_ORDER_ID_NOT_FOUND', 'client order id not found')
          : new ParadexError(400, 'ORDER_ID_NOT_FOUND', 'order id not found');
      }
      if (order.status !== 'open' && order.status !== 'partially_filled') {
        throw new ParadexError(400, 'ORDER_IS_CLOSED', 'order is closed');
      }
      venue.desk.cancel(request.accountId, { orderId: order.orderId });
      this.notes.set(order.orderId, { ...this.notesOf(order), cancelReason: 'USER_CANCELED' });
      return { status: 204 };
    });
  }

  /** GET /v1/orders/{id} or /by_client_id/{client_id}. */
  lookup(venue: VenueEngine, account: string, target: { id?: string; clientId?: string }) {
    const order = this.find(venue, account, target);
    if (order) {
      return paradexOrder(venue, order, this.notesOf(order));
    }
    const unplaced =
      target.id !== undefined
        ? this.unplaced.get(target.id)
        : this.unplacedByClient(account, target.clientId ?? '');
    if (unplaced && unplaced.account === account) {
      return closedUnplaced(unplaced);
    }
    throw target.clientId !== undefined
      ? new ParadexError(404, 'CLIENT_ORDER_ID_NOT_FOUND', 'client order id not found')
      : new ParadexError(404, 'ORDER_ID_NOT_FOUND', 'order id not found');
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
      return 'POST_ONLY_WOULD_CROSS';
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

/** An engine refusal of a placement in Paradex's words (the request's own refusals pass). */
function refusalOf(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  const reason = (error as { reason?: unknown }).reason;
  if (code === 'duplicate_client_order_id') {
    return new ParadexError(400, 'DUPLICATED_CLIENT_ID', 'duplicated client id');
  }
  if (code === 'unknown_market') {
    return new ParadexError(400, 'MARKET_NOT_FOUND', 'market not found');
  }
  if (code === 'invalid_order') {
    if (reason === 'invalid_tick') {
      return new ParadexError(
        400,
        'INVALID_PRICE_PRECISION',
        'price is not a multiple of the tick size',
      );
    }
    if (reason === 'invalid_size' || reason === 'below_min_size') {
      return new ParadexError(400, 'INVALID_ORDER_SIZE', 'invalid order size');
    }
    if (reason === 'below_min_notional') {
      return new ParadexError(400, 'VALIDATION_ERROR', 'order value is below the minimum notional');
    }
    return new ParadexError(400, 'VALIDATION_ERROR', 'invalid order');
  }
  return error;
}
