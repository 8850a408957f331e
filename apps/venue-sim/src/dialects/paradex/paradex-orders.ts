import { HttpFailure, type HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { MarketState } from '../../engine/market-state';
import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import type { DialectProfile } from '../dialect-profiles';
import type { DialectTiming } from '../dialect-timings';
import { numericId } from '../engine-ids';
import { engineRefusalOf } from '../engine-refusal';
import { validatePlacement } from '../../engine/order-validation';
import { ParadexError, type ParadexAuth } from './paradex-auth';
import { ParadexCancelQueue } from './paradex-cancel-queue';
import {
  ParadexHeldOrders,
  heldView,
  queuedEntry,
  type HeldOrder,
  type OrderTarget as Target,
} from './paradex-held-orders';
import { ParadexOrderRecords } from './paradex-order-records';
import {
  checkOrderSignature,
  parseOrder,
  pastReceiveWindow,
  refusalOf,
  type ParsedOrder,
} from './paradex-order-request';
import {
  closedUnplaced,
  queuedOrder,
  type BatchCancelOutcome,
  type OrderNotes,
} from './paradex-order-views';
import { PARADEX_READINGS, POST_ONLY_CANCEL_WORD } from './paradex-readings';

export { paradexOrder, type OrderNotes } from './paradex-order-views';

export const PARADEX = 'paradex';

/**
 * The `cancel_reason` of a reduce-only order closed with no position to reduce on its
 * other side. Paradex publishes no list of reasons: the word is the dialect's (the live
 * client reads an IOC closed with nothing filled as such, whatever the word).
 */
export const REDUCE_ONLY_CANCEL_WORD = 'REDUCE_ONLY_WOULD_INCREASE';

/**
 * Paradex's orders over the engine. As on the venue, an order request is
 * queued: `POST /v1/orders` answers 201 with the order `NEW`, and its fate
 * (resting `OPEN`, filled or canceled `CLOSED` with a `cancel_reason`) is
 * what `GET /v1/orders/{id}` and the `orders` channel say next; a cancel
 * answers 204 and the order is `CLOSED` with `USER_CANCELED` after
 * (paradex-cancel-queue.ts: a fill can land in between). Each
 * order's StarkNet signature is checked against the account's stark key
 * (typed data `Order`: timestamp, market, side 1/2, type, size and price × 10⁸).
 *
 * The readings (paradex-readings.ts) decide when the engine acts on a
 * placement (`order_queue`), what the read by id finds (`order_id_lookup`)
 * and how current the order history is (`history_lag`).
 */
export class ParadexOrders {
  private anonymousSeq = 0;
  private readonly profile: DialectProfile<typeof PARADEX_READINGS>;
  private readonly timing: DialectTiming;
  /** Orders answered NEW and not yet acted on (`order_queue=held`). */
  private readonly held: ParadexHeldOrders;
  /** What the venue knows of each order beyond the engine, and the reads of it. */
  private readonly records: ParadexOrderRecords;
  /** Cancels answered 204 and not yet acted on. */
  readonly cancels: ParadexCancelQueue;

  /** Told of an order the queue closed before the book (the engine never held it). */
  onUnplaced: (account: string, market: string, order: unknown) => void = () => undefined;

  constructor(
    private readonly deps: DialectDeps,
    private readonly auth: ParadexAuth,
  ) {
    this.profile = deps.profiles.of(PARADEX, PARADEX_READINGS);
    this.timing = deps.timings.of(PARADEX);
    this.cancels = new ParadexCancelQueue(
      () => deps.world().venue(PARADEX),
      () => deps.world().frozen.has(PARADEX),
      (venue, account, orderId) => this.cancelNow(venue, account, orderId),
    );
    this.held = new ParadexHeldOrders(
      deps.world,
      () => deps.world().frozen.has(PARADEX),
      (held) => this.actOnHeld(held),
    );
    this.records = new ParadexOrderRecords(deps.world, this.profile, this.timing, this.held);
  }

  notesOf(order: EngineOrder): OrderNotes {
    return this.records.notesOf(order);
  }

  /** An engine order's new state: remembered for a history that lags. */
  recordState(order: EngineOrder): void {
    this.records.recordEngineState(order);
  }

  /** Drops the held orders' timers (the simulator stops). */
  close(): void {
    this.held.close();
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

  /**
   * The order queued: the answer is NEW either way. The engine acts on it now
   * (`order_queue=prompt`: it rests, trades or is closed before the next
   * request), or `queue_hold_ms` after the answer (`held`). Runs inside the
   * order path's engine step (a batch's orders one after another).
   */
  enter(
    venue: VenueEngine,
    request: SignedRequest,
    order: ParsedOrder,
    kind: 'ioc' | 'post_only',
  ): HttpReply {
    this.cancels.settle(venue);
    this.market(venue, order.market);
    const account = request.accountId;
    const clientOrderId = order.clientId || this.anonymousId();
    this.refuseDuplicate(venue, account, clientOrderId);
    const createdAtMs = Date.now();
    if (this.profile.get('order_queue') === 'held') {
      return { status: 201, body: this.hold(venue, account, order, kind, clientOrderId) };
    }
    const id = this.placeInEngine(venue, account, order, kind, clientOrderId);
    return { status: 201, body: queuedOrder(queuedEntry(id, account, order, createdAtMs)) };
  }

  /**
   * The engine takes the order: it rests, trades, or is closed before the
   * book (a post-only that would cross, too little margin). Answers the id
   * the venue shows it by; throws the venue's refusal of the request.
   */
  private placeInEngine(
    venue: VenueEngine,
    account: string,
    order: ParsedOrder,
    kind: 'ioc' | 'post_only',
    clientOrderId: string,
    heldId?: string,
  ): string {
    const market = this.market(venue, order.market);
    const notes = {
      instruction: order.instruction,
      ...(heldId !== undefined ? { id: heldId } : {}),
    };
    this.records.note(account, clientOrderId, notes);
    try {
      const outcome = venue.desk.place(account, placeCommand(market, order, kind, clientOrderId));
      if (kind === 'ioc' && outcome.order.status === 'canceled') {
        this.records.note(account, clientOrderId, { ...notes, cancelReason: 'IOC_CANCEL' });
      }
      return heldId ?? String(numericId(outcome.order.orderId));
    } catch (error) {
      this.records.note(account, clientOrderId, undefined);
      const reason = this.closedReason(error);
      if (reason === undefined) {
        throw refusalOf(error);
      }
      // Queued, then closed by the matching engine: the answer is still NEW.
      const shown = queuedEntry(heldId ?? '', account, order, Date.now());
      const closed = closedUnplaced(
        this.records.rememberUnplaced({ ...shown, cancelReason: reason }),
      );
      this.records.record(closed);
      this.onUnplaced(account, order.market, closed);
      return closed.id;
    }
  }

  /**
   * `order_queue=held`: the order answered NEW and held; the request's own
   * checks (price and size steps, minimums) answer now, the engine's (margin,
   * a post-only crossing) when it acts.
   */
  private hold(
    venue: VenueEngine,
    account: string,
    order: ParsedOrder,
    kind: 'ioc' | 'post_only',
    clientOrderId: string,
  ) {
    const market = this.market(venue, order.market);
    try {
      validatePlacement(venue, account, market, placeCommand(market, order, kind, clientOrderId));
    } catch (error) {
      if ((error as { code?: unknown }).code === 'invalid_order') {
        throw refusalOf(error);
      }
    }
    const held = this.held.hold(
      account,
      order,
      kind,
      clientOrderId,
      this.timing.ms('queue_hold_ms'),
    );
    const shown = heldView(held);
    this.records.record(shown, held.heldAtMs);
    return shown;
  }

  /** A held order's hold has passed: the engine acts on it, then on a cancel that came meanwhile. */
  private actOnHeld(held: HeldOrder): void {
    const venue = this.deps.world().venue(PARADEX);
    this.cancels.settle(venue);
    try {
      this.placeInEngine(venue, held.account, held.order, held.kind, held.clientOrderId, held.id);
    } catch (error) {
      // The request's checks passed when it was held: nothing else refuses it.
      this.deps.logger.warn({ venue: PARADEX, err: String(error) }, 'held order failed');
      return;
    }
    const placed = venue.registry.byClientOrderId(held.account, held.clientOrderId);
    if (held.cancelAfter && placed && isOpen(placed)) {
      this.cancels.add(held.account, placed.orderId);
      this.cancels.settle(venue);
    }
  }

  /** A client id the account's orders (held ones too) already carry: refused. */
  private refuseDuplicate(venue: VenueEngine, account: string, clientOrderId: string): void {
    if (
      venue.registry.byClientOrderId(account, clientOrderId) ||
      this.held.has(account, clientOrderId)
    ) {
      throw new ParadexError(400, 'DUPLICATED_CLIENT_ID', 'duplicated client id');
    }
  }

  /**
   * DELETE /v1/orders/{id} or /by_client_id/{client_id}: queued (204), closed
   * after. A held order's cancel acts right after the order reaches the engine.
   */
  cancel(request: SignedRequest, target: Target): Promise<HttpReply> {
    return this.deps.orders.execute(request, { op: 'cancel', fields: {} }, (venue) => {
      this.cancels.settle(venue);
      const held = this.held.of(request.accountId, target);
      if (held) {
        held.cancelAfter = true;
        return { status: 204 };
      }
      const order = this.records.find(venue, request.accountId, target);
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

  /**
   * One order of `DELETE /v1/orders/batch`, in the cancel-batch page's words:
   * `QUEUED_FOR_CANCELLATION` (the cancel queued, as a single cancel's 204),
   * `ALREADY_CLOSED`, or `NOT_FOUND`. Runs inside the order path's engine step.
   */
  cancelOfBatch(venue: VenueEngine, account: string, target: Target): BatchCancelOutcome {
    const held = this.held.of(account, target);
    if (held) {
      held.cancelAfter = true;
      const { clientId, market } = held.order;
      return { status: 'QUEUED_FOR_CANCELLATION', id: held.id, clientId, market };
    }
    const order = this.records.find(venue, account, target);
    const unplaced = order ? undefined : this.records.unplacedOf(account, target);
    if (unplaced) {
      const { id, clientId, market } = unplaced;
      return { status: 'ALREADY_CLOSED', id, clientId, market };
    }
    if (!order) {
      return { status: 'NOT_FOUND' };
    }
    const clientId = order.clientOrderId.startsWith('pdx-') ? '' : order.clientOrderId;
    const shown = { id: this.records.shownIdOf(order), clientId, market: order.symbol };
    if (!isOpen(order)) {
      return { status: 'ALREADY_CLOSED', ...shown };
    }
    this.cancels.add(account, order.orderId);
    return { status: 'QUEUED_FOR_CANCELLATION', ...shown };
  }

  /** Why there is no order to cancel: closed before the book, or unknown. */
  private notToCancel(account: string, target: Target): ParadexError {
    if (this.records.unplacedOf(account, target)) {
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
    this.records.note(account, order.clientOrderId, {
      ...this.notesOf(order),
      cancelReason: 'USER_CANCELED',
    });
    venue.desk.cancel(account, { orderId: order.orderId });
  }

  /** GET /v1/orders/{id} or /by_client_id/{client_id} (paradex-order-records.ts). */
  lookup(venue: VenueEngine, account: string, target: Target) {
    return this.records.lookup(venue, account, target);
  }

  /** GET /v1/orders-history (paradex-order-records.ts). */
  history(venue: VenueEngine, account: string, query: URLSearchParams) {
    return this.records.history(venue, account, query);
  }

  /** GET /v1/orders (paradex-order-records.ts). */
  open(venue: VenueEngine, account: string, market: string | null) {
    return this.records.open(venue, account, market);
  }

  /** GET /v1/fills (paradex-order-records.ts). */
  fills(venue: VenueEngine, account: string, query: URLSearchParams) {
    return this.records.fills(venue, account, query);
  }

  /** Why the engine closed a queued order at once, or undefined for a refusal of the request. */
  private closedReason(error: unknown): string | undefined {
    const engine = error instanceof HttpFailure ? engineRefusalOf(error) : undefined;
    const code = engine?.code ?? (error as { code?: unknown }).code;
    const reason = engine?.reason ?? (error as { reason?: unknown }).reason;
    if (code === 'post_only_would_cross') {
      return POST_ONLY_CANCEL_WORD[this.profile.get('cancel_reason_words')];
    }
    if (code === 'insufficient_margin') {
      return 'NOT_ENOUGH_MARGIN';
    }
    if (code === 'rejected' && reason === 'reduce_only') {
      return REDUCE_ONLY_CANCEL_WORD;
    }
    return undefined;
  }

  private anonymousId(): string {
    this.anonymousSeq += 1;
    return `pdx-${Date.now().toString(36)}-${this.anonymousSeq}`;
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

/** The engine's placement of a Paradex order request. */
const placeCommand = (
  market: MarketState,
  order: ParsedOrder,
  kind: 'ioc' | 'post_only',
  clientOrderId: string,
) => ({
  symbol: market.spec.symbol,
  side: order.side === 'BUY' ? ('buy' as const) : ('sell' as const),
  type: kind,
  price: order.price,
  size: order.size,
  clientOrderId,
  // Below the minimum order value only when it closes the whole position ("Placing Orders").
  ...(order.reduceOnly
    ? { reduceOnly: true, reduceOnlyMinimums: 'waive_notional_if_closing' as const }
    : {}),
});
