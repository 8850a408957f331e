import type { HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { MarketState } from '../../engine/market-state';
import type { EngineOrder, ReduceOnlyMinimums } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { validatePlacement } from '../../engine/order-validation';
import type { DialectDeps } from '../dialect';
import type { DialectProfile } from '../dialect-profiles';
import type { DialectTiming } from '../dialect-timings';
import { LIGHTER, LighterError, type LighterAccount } from './lighter-accounts';
import { LighterHeldOrders, type HeldOrder } from './lighter-held-orders';
import {
  TIME_IN_FORCE,
  enginePlacement,
  type CancelOrderTx,
  type CreateOrderTx,
} from './lighter-tx';
import {
  engineIdOfOrderIndex,
  isClientOrderIndex,
  keepOrderIndex,
  shownOrderIndex,
  unplacedOrderIndex,
} from './lighter-indices';
import { marketAt, marketIndexOf } from './lighter-markets';
import {
  accepted,
  clientIndexOf,
  orderView,
  statusOf,
  unplacedView,
  type Unplaced,
  type UnplacedStatus,
} from './lighter-order-views';
import { LIGHTER_READINGS } from './lighter-readings';

const MAX_REMEMBERED = 10_000;

/**
 * Lighter's orders over the engine. `POST /api/v1/sendTx` takes a signed
 * create-order or cancel-order transaction; the venue answers its hash, and
 * the order's fate is what the account's order reads and streams say after:
 * `open`, `filled`, `canceled`, or closed before the book with
 * `canceled-post-only` (a post-only order that would have crossed) or
 * `canceled-margin-not-allowed` (an IOC without the margin). A maker order
 * without the margin is refused at the API instead (21739), as Lighter's
 * documents say ("Handle Nonces"). `onAccepted` is told when the venue takes
 * the transaction (its nonce is then used).
 *
 * When the sequencer executes an order is the `order_queue` reading: at
 * once, or `queue_hold_ms` after the answer (`held`: the order is
 * `in-progress` in the account's active orders until then, shown by an
 * order index of its own, which it keeps once executed).
 */
export class LighterOrders {
  private readonly unplaced = new Map<number, Unplaced>();
  private readonly nonces = new Map<string, number>();
  private seq = 0;
  private readonly profile: DialectProfile<typeof LIGHTER_READINGS>;
  private readonly timing: DialectTiming;
  /** Orders taken and not yet executed (`order_queue=held`). */
  private readonly held: LighterHeldOrders;
  /** Told of an order closed before the book. */
  onUnplaced: (wallet: string, marketIndex: number, order: unknown) => void = () => undefined;

  constructor(private readonly deps: DialectDeps) {
    this.profile = deps.profiles.of(LIGHTER, LIGHTER_READINGS);
    this.timing = deps.timings.of(LIGHTER);
    this.held = new LighterHeldOrders(
      deps.world,
      () => deps.world().frozen.has(LIGHTER),
      (held) => this.execute(held),
    );
  }

  /** Whether a reduce-only order is spared the market's minimum amounts (reading `reduce_only_min_amounts`). */
  private reduceOnlyMinimums(): ReduceOnlyMinimums {
    return this.profile.get('reduce_only_min_amounts') === 'waived' ? 'waive_all' : 'apply';
  }

  /** Drops the held orders' timers (the simulator stops). */
  close(): void {
    this.held.close();
  }

  place(
    request: SignedRequest,
    account: LighterAccount,
    tx: CreateOrderTx,
    onAccepted: () => void,
  ): Promise<HttpReply> {
    const type = tx.timeInForce === TIME_IN_FORCE.ioc ? 'ioc' : 'post_only';
    return this.deps.orders.execute(request, { op: 'place', fields: { type } }, (venue) => {
      if (tx.timeInForce === TIME_IN_FORCE.gtt) {
        throw new LighterError(400, 21705, 'the simulated venue takes post-only and IOC orders');
      }
      if (tx.reduceOnly && tx.timeInForce !== TIME_IN_FORCE.ioc) {
        // Lighter rests reduce-only orders; the engine reduces with an IOC only.
        throw new LighterError(400, 21740, 'the simulated venue takes reduce-only IOC orders only');
      }
      const market = marketAt(venue, tx.marketIndex);
      if (!market) {
        throw new LighterError(400, 21602, 'invalid market index');
      }
      if (
        tx.clientOrderIndex !== 0 &&
        (this.activeByIndex(venue, account.wallet, tx.clientOrderIndex) ||
          this.held.byClientIndex(account.wallet, tx.clientOrderIndex))
      ) {
        throw new LighterError(400, 21728, 'client order index already exists');
      }
      const clientOrderId = this.engineClientOrderId(venue, account.wallet, tx.clientOrderIndex);
      if (this.profile.get('order_queue') === 'held') {
        this.hold(venue, account, market, tx, type, clientOrderId);
      } else {
        this.placeInEngine(venue, account, market, tx, type, clientOrderId);
      }
      onAccepted();
      return accepted(tx);
    });
  }

  /** The sequencer executes the order: it rests, trades, or is closed before the book. */
  private placeInEngine(
    venue: VenueEngine,
    account: LighterAccount,
    market: MarketState,
    tx: CreateOrderTx,
    type: 'ioc' | 'post_only',
    clientOrderId: string,
    heldIndex?: number,
  ): void {
    try {
      const outcome = venue.desk.place(
        account.wallet,
        enginePlacement(market, tx, type, clientOrderId, this.reduceOnlyMinimums()),
      );
      if (outcome.duplicate) {
        throw new LighterError(400, 21728, 'client order index already exists');
      }
      this.nonces.set(outcome.order.orderId, tx.nonce);
    } catch (error) {
      this.refused(error, account, market, tx, heldIndex);
    }
  }

  /**
   * `order_queue=held`: the transaction taken and the order held. What the
   * API refuses (price and size steps, minimums, a maker order without the
   * margin) is refused now; what the sequencer decides (a post-only that
   * would cross, an IOC without the margin) when it executes.
   */
  private hold(
    venue: VenueEngine,
    account: LighterAccount,
    market: MarketState,
    tx: CreateOrderTx,
    type: 'ioc' | 'post_only',
    clientOrderId: string,
  ): void {
    try {
      validatePlacement(
        venue,
        account.wallet,
        market,
        enginePlacement(market, tx, type, clientOrderId, this.reduceOnlyMinimums()),
      );
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'invalid_order' || (code === 'insufficient_margin' && type === 'post_only')) {
        this.refused(error, account, market, tx);
      }
    }
    this.held.hold(account, tx, type, clientOrderId, this.timing.ms('queue_hold_ms'));
  }

  /** A held order's time has come: the sequencer executes it, then a cancel that came meanwhile. */
  private execute(held: HeldOrder): void {
    const venue = this.deps.world().venue(LIGHTER);
    const market = marketAt(venue, held.tx.marketIndex)!;
    const { lighterAccount, tx, type, clientOrderId, orderIndex } = held;
    // Executed, the order keeps the index it was shown with in progress.
    keepOrderIndex(venue, held.account, clientOrderId, orderIndex);
    try {
      this.placeInEngine(venue, lighterAccount, market, tx, type, clientOrderId, orderIndex);
    } catch (error) {
      // The API's checks passed when it was taken: nothing else refuses it.
      this.deps.logger.warn({ venue: LIGHTER, err: String(error) }, 'held order failed');
      return;
    }
    const order = venue.registry.byClientOrderId(held.account, held.clientOrderId);
    if (held.cancelAfter && order && isActive(order)) {
      venue.desk.cancel(held.account, { orderId: order.orderId });
    }
  }

  /**
   * The engine's refusal of a placement as Lighter has it: at the API (a
   * LighterError: the transaction is refused, its nonce unused), or by the
   * sequencer (the order closed before the book; the transaction stands).
   */
  private refused(
    error: unknown,
    account: LighterAccount,
    market: MarketState,
    tx: CreateOrderTx,
    heldIndex?: number,
  ): void {
    const code = (error as { code?: unknown }).code;
    if (error instanceof LighterError) {
      throw error;
    }
    if (code === 'post_only_would_cross') {
      this.reject(account, market, tx, 'canceled-post-only', heldIndex);
    } else if (code === 'insufficient_margin' && tx.timeInForce === TIME_IN_FORCE.ioc) {
      this.reject(account, market, tx, 'canceled-margin-not-allowed', heldIndex);
    } else if (code === 'rejected' && (error as { reason?: unknown }).reason === 'reduce_only') {
      // A taker fails at the sequencer, not the API ("Handle Nonces"): its transaction stands.
      this.reject(account, market, tx, 'canceled-reduce-only', heldIndex);
    } else if (code === 'insufficient_margin') {
      throw new LighterError(400, 21739, 'not enough margin to create the order');
    } else if (code === 'duplicate_client_order_id') {
      throw new LighterError(400, 21728, 'client order index already exists');
    } else if (code === 'invalid_order') {
      const reason = (error as { reason?: unknown }).reason;
      if (reason === 'invalid_tick') {
        throw new LighterError(400, 21702, 'invalid price');
      }
      if (reason === 'below_min_size') {
        throw new LighterError(400, 21603, 'invalid min amounts for market');
      }
      throw new LighterError(400, 21701, 'invalid base amount');
    } else {
      throw error;
    }
  }

  cancel(
    request: SignedRequest,
    account: LighterAccount,
    tx: CancelOrderTx,
    onAccepted: () => void,
  ): Promise<HttpReply> {
    return this.deps.orders.execute(request, { op: 'cancel', fields: {} }, (venue) => {
      const market = marketAt(venue, tx.marketIndex);
      if (!market) {
        throw new LighterError(400, 21602, 'invalid market index');
      }
      const held = this.held.of(account.wallet, tx.index);
      if (held && held.tx.marketIndex === tx.marketIndex) {
        // Executed right after the order it names.
        held.cancelAfter = true;
        onAccepted();
        return accepted(tx);
      }
      const order = this.find(venue, account.wallet, tx.index);
      if (
        !order ||
        order.symbol !== market.spec.symbol ||
        (order.status !== 'open' && order.status !== 'partially_filled')
      ) {
        throw new LighterError(400, 21600, 'given order is not an active limit order');
      }
      venue.desk.cancel(account.wallet, { orderId: order.orderId });
      onAccepted();
      return accepted(tx);
    });
  }

  /** The account's resting orders of a market, then those in progress (`accountActiveOrders`). */
  active(venue: VenueEngine, account: LighterAccount, market: MarketState) {
    const marketIndex = marketIndexOf(venue, market.spec.symbol);
    const inProgress = this.held.inProgress(account.wallet, market, marketIndex);
    return [
      ...venue.registry
        .open(account.wallet)
        .filter((order) => order.symbol === market.spec.symbol)
        .sort((a, b) => a.createdAtMs - b.createdAtMs)
        .map((order) => this.view(venue, order, account.index)),
      ...inProgress,
    ];
  }

  /** The account's closed orders of a market, newest first (`accountInactiveOrders`). */
  inactive(venue: VenueEngine, account: LighterAccount, market: MarketState, limit: number) {
    const closed = venue.registry
      .ordersOf(account.wallet)
      .filter(
        (order) =>
          order.symbol === market.spec.symbol &&
          order.status !== 'open' &&
          order.status !== 'partially_filled',
      )
      .map((order) => ({ at: order.updatedAtMs, view: this.view(venue, order, account.index) }));
    const refused = [...this.unplaced.values()]
      .filter((entry) => entry.wallet === account.wallet && entry.market === market)
      .map((entry) => ({ at: entry.createdMs, view: unplacedView(entry) }));
    return [...closed, ...refused]
      .sort((a, b) => b.at - a.at)
      .slice(0, limit)
      .map((entry) => entry.view);
  }

  /** An engine order as Lighter's order reads and the account stream give it. */
  view(venue: VenueEngine, order: EngineOrder, accountIndex: number) {
    const market = venue.market(order.symbol);
    const open = order.status === 'open' || order.status === 'partially_filled';
    const ioc = order.type === 'ioc';
    return orderView({
      orderIndex: shownOrderIndex(venue, order),
      clientOrderIndex: clientIndexOf(order.clientOrderId),
      marketIndex: marketIndexOf(venue, order.symbol),
      account: accountIndex,
      size: market.lot.format(order.sizeLots),
      price: market.price.format(order.priceTicks),
      nonce: this.nonces.get(order.orderId) ?? 0,
      remaining: market.lot.format(open ? order.sizeLots - order.filledLots : 0),
      isAsk: order.side === 'sell',
      filled: market.lot.format(order.filledLots),
      filledQuote: order.filledValue.toFixed(6),
      timeInForce: ioc ? 'immediate-or-cancel' : 'post-only',
      reduceOnly: order.reduceOnly === true,
      status: statusOf(order),
      createdMs: order.createdAtMs,
      updatedMs: order.updatedAtMs,
    });
  }

  /** The order a cancel's index names: a client order index below 2^48, an order index from 2^48. */
  private find(venue: VenueEngine, wallet: string, index: number): EngineOrder | undefined {
    if (isClientOrderIndex(index)) {
      return this.activeByIndex(venue, wallet, index);
    }
    const named = this.held.named(index);
    if (named) {
      return named.wallet === wallet
        ? venue.registry.byClientOrderId(wallet, named.clientOrderId)
        : undefined;
    }
    const engineId = engineIdOfOrderIndex(index);
    return engineId ? venue.registry.get(wallet, engineId) : undefined;
  }

  /** The account's active order with this client order index (unique among active orders only). */
  private activeByIndex(venue: VenueEngine, wallet: string, index: number) {
    return venue.registry
      .open(wallet)
      .find((order) => clientIndexOf(order.clientOrderId) === index);
  }

  /**
   * The engine's client order id for a Lighter order: the index, made unique
   * when a closed order had it (the engine keeps client ids unique forever;
   * Lighter only among active orders).
   */
  private engineClientOrderId(venue: VenueEngine, wallet: string, index: number): string {
    let candidate = String(index);
    while (venue.registry.byClientOrderId(wallet, candidate)) {
      this.seq += 1;
      candidate = `${index}~${this.seq}`;
    }
    return candidate;
  }

  private reject(
    account: LighterAccount,
    market: MarketState,
    tx: CreateOrderTx,
    status: UnplacedStatus,
    heldIndex?: number,
  ): void {
    this.seq += 1;
    const entry: Unplaced = {
      // An order shown in progress keeps its index.
      orderIndex: heldIndex ?? unplacedOrderIndex(this.seq),
      account: account.index,
      wallet: account.wallet,
      market,
      tx,
      status,
      createdMs: Date.now(),
    };
    this.unplaced.set(entry.orderIndex, entry);
    if (this.unplaced.size > MAX_REMEMBERED) {
      this.unplaced.delete(this.unplaced.keys().next().value as number);
    }
    this.onUnplaced(account.wallet, tx.marketIndex, unplacedView(entry));
  }
}

const isActive = (order: EngineOrder): boolean =>
  order.status === 'open' || order.status === 'partially_filled';

export { LIGHTER };
