import Big from 'big.js';
import { HttpFailure, type HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { MarketState } from '../../engine/market-state';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { engineOrderId, numericId } from '../engine-ids';
import { engineRefusalOf } from '../engine-refusal';
import { ParadexError, paradexTyped, type ParadexAuth } from './paradex-auth';
import { feltOf } from './paradex-signing';

export const PARADEX = 'paradex';

/** Paradex scales order sizes and prices to 8 decimals in what it signs. */
const SIGNED_SCALE = new Big(100_000_000);
const CLIENT_ID = /^[\x21-\x7e]{1,64}$/;
const DECIMAL = /^\d+(\.\d+)?$/;
/** Paradex accepts an order signature this long after its timestamp. */
const SIGNATURE_MAX_AGE_MS = 5 * 60_000;

const ORDER_FIELDS = ['timestamp', 'market', 'side', 'orderType', 'size', 'price'].map((name) => ({
  name,
  type: 'felt',
}));

export type ParadexInstruction = 'GTC' | 'POST_ONLY' | 'IOC';

/** What the dialect knows of an order beyond the engine: its instruction, and why it closed. */
export interface OrderNotes {
  instruction: ParadexInstruction;
  cancelReason?: string;
}

/** An order the venue queued and then closed without it ever reaching the book. */
interface ClosedUnplaced {
  id: string;
  account: string;
  market: string;
  side: 'BUY' | 'SELL';
  size: string;
  price: string;
  clientId: string;
  instruction: ParadexInstruction;
  cancelReason: string;
  createdAtMs: number;
}

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
    const order = this.parseOrder(body);
    this.checkSignature(account, order, body);
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

  private parseOrder(body: Record<string, unknown>) {
    const { market, side, type, size, price, instruction, client_id: clientId } = body;
    if (typeof market !== 'string') {
      throw invalid('market');
    }
    if (side !== 'BUY' && side !== 'SELL') {
      throw invalid('side');
    }
    if (type !== 'LIMIT') {
      throw new ParadexError(
        400,
        'VALIDATION_ERROR',
        'the simulated venue trades LIMIT orders only',
      );
    }
    if (typeof size !== 'string' || !DECIMAL.test(size) || new Big(size).lte(0)) {
      throw invalid('size');
    }
    if (typeof price !== 'string' || !DECIMAL.test(price) || new Big(price).lte(0)) {
      throw invalid('price');
    }
    const chosen = instruction ?? 'GTC';
    if (chosen !== 'GTC' && chosen !== 'POST_ONLY' && chosen !== 'IOC') {
      throw invalid('instruction');
    }
    if (clientId !== undefined && (typeof clientId !== 'string' || !CLIENT_ID.test(clientId))) {
      throw invalid('client_id');
    }
    if (
      body['flags'] !== undefined &&
      !(Array.isArray(body['flags']) && body['flags'].length === 0)
    ) {
      throw new ParadexError(400, 'VALIDATION_ERROR', 'the simulated venue takes no order flags');
    }
    return {
      market,
      side: side as 'BUY' | 'SELL',
      type: type as string,
      size,
      price,
      instruction: chosen as ParadexInstruction,
      clientId: (clientId as string | undefined) ?? '',
    };
  }

  private checkSignature(
    account: string,
    order: ReturnType<ParadexOrders['parseOrder']>,
    body: Record<string, unknown>,
  ): void {
    const timestamp = body['signature_timestamp'];
    if (!Number.isSafeInteger(timestamp)) {
      throw new ParadexError(400, 'INVALID_REQUEST_PARAMETER', 'invalid signature_timestamp');
    }
    if (Math.abs(Date.now() - (timestamp as number)) > SIGNATURE_MAX_AGE_MS) {
      throw new ParadexError(400, 'INVALID_TIMESTAMP', 'signature timestamp is too old');
    }
    const scaled = (value: string): string => {
      const text = new Big(value).times(SIGNED_SCALE);
      if (!text.eq(text.round(0))) {
        throw invalid('precision');
      }
      return text.toFixed(0);
    };
    const typed = paradexTyped('Order', ORDER_FIELDS, {
      timestamp,
      market: `0x${feltOf(order.market).toString(16)}`,
      side: order.side === 'BUY' ? '1' : '2',
      orderType: `0x${feltOf(order.type).toString(16)}`,
      size: scaled(order.size),
      price: scaled(order.price),
    });
    const starkKey = this.auth.starkKeyOf(account);
    if (!starkKey) {
      throw new ParadexError(400, 'NOT_ONBOARDED', 'User has never called /onboarding endpoint');
    }
    this.auth.checkSignature(
      body['signature'],
      typed,
      account,
      starkKey,
      'INVALID_ORDER_SIGNATURE',
    );
  }

  private market(venue: VenueEngine, symbol: string): MarketState {
    const market = venue.markets.get(symbol);
    if (!market) {
      throw new ParadexError(400, 'MARKET_NOT_FOUND', `market ${symbol} not found`);
    }
    return market;
  }
}

const invalid = (field: string): ParadexError =>
  new ParadexError(400, 'VALIDATION_ERROR', `invalid ${field}`);

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

/** The order as the queue acknowledged it: NEW, nothing filled. */
function queuedOrder(order: Omit<ClosedUnplaced, 'cancelReason'>) {
  return {
    id: order.id,
    account: order.account,
    market: order.market,
    side: order.side,
    type: 'LIMIT',
    size: order.size,
    remaining_size: order.size,
    price: order.price,
    status: 'NEW',
    created_at: order.createdAtMs,
    last_updated_at: order.createdAtMs,
    timestamp: order.createdAtMs,
    received_at: order.createdAtMs,
    published_at: order.createdAtMs,
    cancel_reason: '',
    client_id: order.clientId,
    instruction: order.instruction,
    avg_fill_price: '',
    flags: [],
    stp: 'EXPIRE_TAKER',
    trigger_price: '',
    seq_no: order.createdAtMs,
  };
}

/** An engine order in Paradex's words: OPEN while on the book, CLOSED after (why, if not filled). */
export function paradexOrder(venue: VenueEngine, order: EngineOrder, notes: OrderNotes) {
  const market = venue.market(order.symbol);
  const closed = order.status === 'filled' || order.status === 'canceled';
  const filled = market.lot.toBig(order.filledLots);
  return {
    id: String(numericId(order.orderId)),
    account: order.accountId,
    market: order.symbol,
    side: order.side === 'buy' ? 'BUY' : 'SELL',
    type: 'LIMIT',
    size: market.lot.format(order.sizeLots),
    remaining_size: market.lot.format(order.sizeLots - order.filledLots),
    price: market.price.format(order.priceTicks),
    status: closed ? 'CLOSED' : 'OPEN',
    created_at: order.createdAtMs,
    last_updated_at: order.updatedAtMs,
    timestamp: order.updatedAtMs,
    received_at: order.createdAtMs,
    published_at: order.updatedAtMs,
    cancel_reason: order.status === 'canceled' ? (notes.cancelReason ?? 'USER_CANCELED') : '',
    client_id: order.clientOrderId.startsWith('pdx-') ? '' : order.clientOrderId,
    instruction: notes.instruction,
    avg_fill_price: filled.gt(0) ? order.filledValue.div(filled).round(8).toFixed() : '',
    flags: [],
    stp: 'EXPIRE_TAKER',
    trigger_price: '',
    seq_no: order.updatedAtMs,
  };
}

function closedUnplaced(order: ClosedUnplaced) {
  return {
    ...queuedOrder(order),
    status: 'CLOSED',
    remaining_size: order.size,
    cancel_reason: order.cancelReason,
  };
}

/** One fill as `GET /v1/fills` gives it. */
export function paradexFill(venue: VenueEngine, fill: EngineFill) {
  const market = venue.market(fill.symbol);
  const order = venue.registry.orderById(fill.orderId);
  return {
    id: String(numericId(fill.fillId)),
    side: fill.side === 'buy' ? 'BUY' : 'SELL',
    liquidity: fill.liquidity === 'maker' ? 'MAKER' : 'TAKER',
    market: fill.symbol,
    order_id: String(numericId(fill.orderId)),
    price: market.price.format(fill.priceTicks),
    size: market.lot.format(fill.lots),
    fee: fill.fee.toFixed(),
    fee_currency: 'USDC',
    created_at: fill.tsMs,
    remaining_size: order ? market.lot.format(order.sizeLots - order.filledLots) : '0',
    client_id: fill.clientOrderId.startsWith('pdx-') ? '' : fill.clientOrderId,
    fill_type: 'FILL',
    realized_pnl: '0',
  };
}
