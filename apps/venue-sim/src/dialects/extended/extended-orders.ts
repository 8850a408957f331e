import type { HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { EngineOrder, ReduceOnlyMinimums } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import type { DialectProfile } from '../dialect-profiles';
import { engineOrderId, numericId } from '../engine-ids';
import { ExtendedError, type ExtendedAccount } from './extended-accounts';
import { checkRequest, placeCommand, statusReasonOf } from './extended-checks';
import { parseOrder } from './extended-order-request';
import {
  extendedOrder,
  extendedTrade,
  queuedOrder,
  unplacedOrder,
  type OrderNotes,
  type Unplaced,
} from './extended-order-views';
import { ExtendedQueue, QUEUE_MS, type QueuedPlacement } from './extended-queue';
import type { MassCancel } from './extended-mass-cancel';
import { EXTENDED_READINGS } from './extended-readings';
import { tradesPage } from './extended-trades';
import { checkSettlement } from './extended-settlement';

export { extendedOrder, extendedTrade, type ExtendedTif } from './extended-order-views';

export const EXTENDED = 'extended';

const MAX_REMEMBERED = 10_000;
/** Ids the venue answers placements with (the engine's own ids stay below). */
const FIRST_ID = 900_000_000_000_000;

type Target = { id?: string; externalId?: string };

const keyOf = (wallet: string, externalId: string): string => `${wallet}\n${externalId}`;

/**
 * Extended's orders over the engine. `POST /api/v1/user/order` carries a
 * StarkEx settlement signed with the account's stark key (extended-signing.ts):
 * the venue rebuilds it from the order and refuses an order whose signature
 * does not verify (1101). Placement answers `{id, externalId}` only and
 * queues the order (extended-queue.ts); the engine acts on it a moment
 * later, and its status (NEW resting, PARTIALLY_FILLED, FILLED, CANCELLED,
 * EXPIRED, or REJECTED with a `statusReason` such as `POST_ONLY_FAILED`) is
 * what the account stream pushes then and what `GET /api/v1/user/orders/...`
 * shows (while queued: `NEW`, or the fate at once, by the `first_read` reading).
 * How long the queue takes is the `order_queue` reading: a moment, or
 * `queue_hold_ms` (`held`: reads show NEW all that time, and a cancel of a
 * queued order is answered OK and acts right after the order reaches the
 * engine).
 */
export class ExtendedOrders {
  /** Notes of each order by wallet and external id (known before the engine names the order). */
  private readonly notes = new Map<string, OrderNotes>();
  /** The order each answered id names. */
  private readonly ids = new Map<string, { wallet: string; externalId: string }>();
  private readonly unplaced = new Map<string, Unplaced>();
  private readonly profile: DialectProfile<typeof EXTENDED_READINGS>;
  readonly queue: ExtendedQueue;
  private seq = 0;
  /** Told of an order rejected before the book. */
  onUnplaced: (wallet: string, order: ReturnType<typeof unplacedOrder>) => void = () => undefined;

  constructor(private readonly deps: DialectDeps) {
    this.profile = deps.profiles.of(EXTENDED, EXTENDED_READINGS);
    const timing = deps.timings.of(EXTENDED);
    this.queue = new ExtendedQueue(
      (placement) => this.act(placement),
      () => (this.held() ? timing.ms('queue_hold_ms') : QUEUE_MS),
    );
  }

  notesOf(order: EngineOrder): OrderNotes {
    return (
      this.notes.get(keyOf(order.accountId, order.clientOrderId)) ?? {
        tif: order.type === 'ioc' ? 'IOC' : 'GTT',
        postOnly: order.type !== 'ioc',
      }
    );
  }

  /** The id the venue gave an engine order (its answered id, else the engine's own). */
  idOf(engineOrderId: string): number {
    const order = this.deps.world().venue(EXTENDED).registry.orderById(engineOrderId);
    const id = order ? this.notesOf(order).id : undefined;
    return id !== undefined ? Number(id) : numericId(engineOrderId);
  }

  place(
    request: SignedRequest,
    account: ExtendedAccount,
    body: Record<string, unknown>,
  ): Promise<HttpReply> {
    const order = parseOrder(body);
    const kind = order.tif === 'IOC' ? 'ioc' : 'post_only';
    return this.deps.orders.execute(request, { op: 'place', fields: { type: kind } }, (venue) => {
      const wallet = request.accountId;
      if (!venue.markets.get(order.market)) {
        throw new ExtendedError(400, 1001, 'Market not found.');
      }
      checkSettlement(account, order, venue.market(order.market), venue.profile.takerFeeBps);
      if (
        venue.registry.byClientOrderId(wallet, order.externalId) ||
        this.queue.byExternalId(wallet, order.externalId)
      ) {
        throw new ExtendedError(400, 1134, 'Duplicate Order.');
      }
      checkRequest(venue, wallet, order, this.reduceOnlyMinimums());
      const id = this.nextId();
      this.remember(wallet, order.externalId, { id, tif: order.tif, postOnly: order.postOnly });
      this.queue.add({
        id,
        wallet,
        account,
        order,
        createdTime: Date.now(),
        world: this.deps.world(),
        reads: 0,
      });
      return { status: 200, body: { status: 'OK', data: { id, externalId: order.externalId } } };
    });
  }

  /**
   * DELETE /api/v1/user/order/{id} or ?externalId=: `{status: "OK"}`, the
   * order canceled; a held placement's cancel (`order_queue=held`) acts once
   * the order reaches the engine.
   */
  cancel(request: SignedRequest, target: Target): Promise<HttpReply> {
    return this.deps.orders.execute(request, { op: 'cancel', fields: {} }, (venue) => {
      if (this.holdOrFlush(request.accountId, [target])[0]) {
        return { status: 200, body: { status: 'OK' } };
      }
      const order = this.find(venue, request.accountId, target);
      if (order && (order.status === 'open' || order.status === 'partially_filled')) {
        venue.desk.cancel(request.accountId, { orderId: order.orderId });
        return { status: 200, body: { status: 'OK' } };
      }
      if (!order && !this.unplacedOf(request.accountId, target)) {
        throw new ExtendedError(404, 1142, 'Order not found.');
      }
      return this.notOpen();
    });
  }

  /**
   * `POST /api/v1/user/order/massCancel` (extended-mass-cancel.ts): the named
   * orders, and with `cancelAll` or `markets` every open order (of those
   * markets), canceled at once; an id naming no open order is passed over,
   * as the answer says nothing per order. Placements queued before it reach
   * the engine first; under `order_queue=held` a named held placement is
   * canceled once it does (one not named stays queued: assumed).
   */
  massCancel(request: SignedRequest, selection: MassCancel): Promise<HttpReply> {
    return this.deps.orders.execute(request, { op: 'cancel', fields: {} }, (venue) => {
      const wallet = request.accountId;
      const targets: Target[] = [
        ...selection.orderIds.map((id) => ({ id })),
        ...selection.externalOrderIds.map((externalId) => ({ externalId })),
      ];
      this.holdOrFlush(wallet, targets);
      const chosen = new Set(targets.map((target) => this.find(venue, wallet, target)?.orderId));
      const wide = selection.cancelAll || selection.markets !== null;
      for (const order of venue.registry.open(wallet)) {
        const inMarket = selection.markets === null || selection.markets.includes(order.symbol);
        if (chosen.has(order.orderId) || (wide && inMarket)) {
          venue.desk.cancel(wallet, { orderId: order.orderId });
        }
      }
      return { status: 200, body: { status: 'OK', data: {} } };
    });
  }

  lookup(venue: VenueEngine, account: ExtendedAccount, wallet: string, target: Target) {
    this.settleReads(wallet);
    const order = this.find(venue, wallet, target);
    if (order) {
      return extendedOrder(venue, order, account.accountId, this.notesOf(order));
    }
    const queued = this.queuedOf(wallet, target);
    if (queued) {
      queued.reads += 1;
      return queuedOrder(this.entryOf(queued));
    }
    const unplaced = this.unplacedOf(wallet, target);
    if (unplaced) {
      return unplacedOrder(unplaced);
    }
    throw new ExtendedError(404, 1142, 'Order not found.');
  }

  open(venue: VenueEngine, account: ExtendedAccount, wallet: string, market: string | null) {
    this.settleReads(wallet);
    const queued = this.queue
      .ofWallet(wallet)
      .filter((placement) => market === null || placement.order.market === market)
      .map((placement) => queuedOrder(this.entryOf(placement)));
    const resting = venue.registry
      .open(wallet)
      .filter((order) => market === null || order.symbol === market)
      .sort((a, b) => a.createdAtMs - b.createdAtMs)
      .map((order) => extendedOrder(venue, order, account.accountId, this.notesOf(order)));
    return [...resting, ...queued];
  }

  /** A page of the account's trades, newest first (extended-trades.ts). */
  trades(venue: VenueEngine, account: ExtendedAccount, wallet: string, query: URLSearchParams) {
    return tradesPage(venue.registry.fillsSince(wallet, 0), query, (fill) =>
      extendedTrade(venue, fill, account.accountId, this.idOf(fill.orderId)),
    );
  }

  /** The engine acts on a queued placement: the order rests or trades, or is rejected with a reason. */
  private act(placement: QueuedPlacement): void {
    if (placement.world !== this.deps.world()) {
      return;
    }
    const venue = this.deps.world().venue(EXTENDED);
    try {
      const { order } = venue.desk.place(
        placement.wallet,
        placeCommand(placement.order, this.reduceOnlyMinimums()),
      );
      if (
        placement.cancelAfter &&
        (order.status === 'open' || order.status === 'partially_filled')
      ) {
        venue.desk.cancel(placement.wallet, { orderId: order.orderId });
      }
    } catch (error) {
      const reason = statusReasonOf(error);
      if (reason === undefined) {
        this.deps.logger.warn({ venue: EXTENDED, err: String(error) }, 'queued order failed');
      }
      this.reject(placement, reason ?? 'UNKNOWN');
    }
  }

  /**
   * Under `first_read` = `fate`, a read sees what the engine does with the
   * account's queued orders; never a held one (`order_queue=held`).
   */
  private settleReads(wallet: string): void {
    if (this.profile.get('first_read') === 'fate' && !this.held()) {
      this.queue.flushWallet(wallet);
    }
  }

  /** Whether a reduce-only order is spared the minimum trade size (reading `reduce_only_min_size`). */
  private reduceOnlyMinimums(): ReduceOnlyMinimums {
    return this.profile.get('reduce_only_min_size') === 'waived' ? 'waive_all' : 'apply';
  }

  private held(): boolean {
    return this.profile.get('order_queue') === 'held';
  }

  private queuedOf(wallet: string, target: Target): QueuedPlacement | undefined {
    const queued =
      target.id !== undefined
        ? this.queue.get(target.id)
        : this.queue.byExternalId(wallet, target.externalId ?? '');
    return queued?.wallet === wallet ? queued : undefined;
  }

  /**
   * A cancel's first step. Under `order_queue=held` a named placement still
   * queued is marked to be canceled once it reaches the engine (true for it);
   * otherwise the placements queued before the cancel reach the engine first.
   */
  private holdOrFlush(wallet: string, targets: readonly Target[]): boolean[] {
    if (!this.held()) {
      this.queue.flushWallet(wallet);
      return targets.map(() => false);
    }
    return targets.map((target) => {
      const queued = this.queuedOf(wallet, target);
      if (queued) {
        queued.cancelAfter = true;
      }
      return queued !== undefined;
    });
  }

  /** The cancel of an order that is not open, as the `cancel_not_open` reading answers it. */
  private notOpen(): HttpReply {
    switch (this.profile.get('cancel_not_open')) {
      case 'ok':
        return { status: 200, body: { status: 'OK' } };
      case 'bare_404':
        return { status: 404 };
      case 'code_1142':
        throw new ExtendedError(400, 1142, 'Order not found.');
    }
  }

  private find(venue: VenueEngine, wallet: string, target: Target): EngineOrder | undefined {
    if (target.externalId !== undefined) {
      return venue.registry.byClientOrderId(wallet, target.externalId);
    }
    const named = target.id !== undefined ? this.ids.get(target.id) : undefined;
    if (named) {
      return named.wallet === wallet
        ? venue.registry.byClientOrderId(wallet, named.externalId)
        : undefined;
    }
    const engineId = target.id !== undefined ? engineOrderId(target.id) : undefined;
    return engineId ? venue.registry.get(wallet, engineId) : undefined;
  }

  private unplacedOf(wallet: string, target: Target): Unplaced | undefined {
    const unplaced =
      target.id !== undefined
        ? this.unplaced.get(target.id)
        : [...this.unplaced.values()].find(
            (entry) => entry.wallet === wallet && entry.externalId === target.externalId,
          );
    return unplaced?.wallet === wallet ? unplaced : undefined;
  }

  private nextId(): string {
    this.seq += 1;
    return String(FIRST_ID + this.seq);
  }

  private remember(wallet: string, externalId: string, notes: OrderNotes): void {
    this.notes.set(keyOf(wallet, externalId), notes);
    this.ids.set(notes.id!, { wallet, externalId });
    if (this.ids.size > MAX_REMEMBERED) {
      const [oldest, named] = this.ids.entries().next().value as [
        string,
        { wallet: string; externalId: string },
      ];
      this.ids.delete(oldest);
      this.notes.delete(keyOf(named.wallet, named.externalId));
    }
  }

  private entryOf(placement: QueuedPlacement): Omit<Unplaced, 'statusReason'> {
    const { order } = placement;
    return {
      id: placement.id,
      account: placement.account.accountId,
      wallet: placement.wallet,
      externalId: order.externalId,
      market: order.market,
      side: order.side,
      qty: order.qty,
      price: order.price,
      tif: order.tif,
      postOnly: order.postOnly,
      reduceOnly: order.reduceOnly,
      createdTime: placement.createdTime,
    };
  }

  private reject(placement: QueuedPlacement, statusReason: string): void {
    const entry: Unplaced = {
      ...this.entryOf(placement),
      statusReason,
      updatedTime: Date.now(),
    };
    this.unplaced.set(entry.id, entry);
    if (this.unplaced.size > MAX_REMEMBERED) {
      this.unplaced.delete(this.unplaced.keys().next().value as string);
    }
    this.onUnplaced(placement.wallet, unplacedOrder(entry));
  }
}
