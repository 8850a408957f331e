import type { EngineOrder } from '../../engine/types';
import type { Simulator } from '../../engine/simulator';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectProfile } from '../dialect-profiles';
import type { DialectTiming } from '../dialect-timings';
import { engineOrderId, numericId } from '../engine-ids';
import { ParadexError } from './paradex-auth';
import { heldView, type OrderTarget, type ParadexHeldOrders } from './paradex-held-orders';
import { orderHistory } from './paradex-order-history';
import { ParadexOrderJournal } from './paradex-order-journal';
import {
  closedUnplaced,
  paradexFill,
  paradexOrder,
  type ClosedUnplaced,
  type OrderNotes,
} from './paradex-order-views';
import type { PARADEX_READINGS } from './paradex-readings';

const PARADEX = 'paradex';
const MAX_REMEMBERED = 10_000;
/** Ids of orders closed before the book: outside the engine's range (epoch × 10⁹ + seq), 9 × 10¹⁴ up. */
const FIRST_UNPLACED_ID = 900_000_000_000_000;

type ShownOrder = ReturnType<typeof paradexOrder> | ReturnType<typeof closedUnplaced>;

/** An order's notes are keyed by its account and engine client order id (known before the engine names it). */
const keyOf = (account: string, clientOrderId: string): string => `${account}\n${clientOrderId}`;

const isOpen = (order: EngineOrder): boolean =>
  order.status === 'open' || order.status === 'partially_filled';

/**
 * What the venue knows of Paradex orders beyond the engine (each order's
 * notes, the orders closed before the book, the held ones, each order's
 * states over time) and the reads that show them: by id, by client id, the
 * history, the open orders, the fills, each as its reading says
 * (`order_id_lookup`, `client_id_lookup`, `history_lag`).
 */
export class ParadexOrderRecords {
  private readonly notes = new Map<string, OrderNotes>();
  private readonly unplaced = new Map<string, ClosedUnplaced>();
  private unplacedSeq = 0;
  /** Each order's states over time, for a lagging history. */
  private readonly journal = new ParadexOrderJournal<ShownOrder>();

  constructor(
    private readonly world: () => Simulator,
    private readonly profile: DialectProfile<typeof PARADEX_READINGS>,
    private readonly timing: DialectTiming,
    private readonly held: ParadexHeldOrders,
  ) {}

  notesOf(order: EngineOrder): OrderNotes {
    return (
      this.notes.get(keyOf(order.accountId, order.clientOrderId)) ?? {
        instruction: order.type === 'ioc' ? 'IOC' : 'POST_ONLY',
      }
    );
  }

  /** Sets (or with undefined drops) an order's notes, by its account and engine client order id. */
  note(account: string, clientOrderId: string, notes: OrderNotes | undefined): void {
    if (notes) {
      this.notes.set(keyOf(account, clientOrderId), notes);
    } else {
      this.notes.delete(keyOf(account, clientOrderId));
    }
  }

  noteOf(account: string, clientOrderId: string): OrderNotes | undefined {
    return this.notes.get(keyOf(account, clientOrderId));
  }

  /** The id the venue shows an order by: the one it was answered with while held, else the engine's. */
  shownIdOf(order: EngineOrder): string {
    return this.notesOf(order).id ?? String(numericId(order.orderId));
  }

  /** An order state the venue showed now: remembered for a history that lags. */
  record(order: ShownOrder, atMs?: number): void {
    this.journal.record(this.world(), order, atMs);
  }

  /** An engine order's new state, remembered for a history that lags. */
  recordEngineState(order: EngineOrder): void {
    this.record(paradexOrder(this.world().venue(PARADEX), order, this.notesOf(order)));
  }

  /** An order closed before the book, by the id it was answered with (a new one when it has none yet). */
  rememberUnplaced(order: ClosedUnplaced): ClosedUnplaced {
    this.unplacedSeq += 1;
    const id = order.id !== '' ? order.id : String(FIRST_UNPLACED_ID + this.unplacedSeq);
    const remembered = { ...order, id };
    this.unplaced.set(id, remembered);
    if (this.unplaced.size > MAX_REMEMBERED) {
      this.unplaced.delete(this.unplaced.keys().next().value as string);
    }
    return remembered;
  }

  /** The account's order closed before the book a request names. */
  unplacedOf(account: string, target: OrderTarget): ClosedUnplaced | undefined {
    const { id, clientId } = target;
    const unplaced =
      id !== undefined
        ? this.unplaced.get(id)
        : [...this.unplaced.values()].find(
            (order) => order.account === account && order.clientId === clientId && clientId !== '',
          );
    return unplaced?.account === account ? unplaced : undefined;
  }

  /** The engine order a request names (by an id answered while held too). */
  find(venue: VenueEngine, account: string, target: OrderTarget): EngineOrder | undefined {
    if (target.clientId !== undefined) {
      return venue.registry.byClientOrderId(account, target.clientId);
    }
    const named = target.id !== undefined ? this.held.named(target.id) : undefined;
    if (named) {
      return named.account === account
        ? venue.registry.byClientOrderId(account, named.clientOrderId)
        : undefined;
    }
    const engineId = target.id !== undefined ? engineOrderId(target.id) : undefined;
    return engineId ? venue.registry.get(account, engineId) : undefined;
  }

  /**
   * GET /v1/orders/{id} or /by_client_id/{client_id}. A held order is NEW.
   * Each read finds open (and new) orders only where its reading says so
   * (`order_id_lookup`, `client_id_lookup`, both documented `open_only`): a
   * closed one is answered as an unknown one.
   */
  lookup(venue: VenueEngine, account: string, target: OrderTarget) {
    const held = this.held.of(account, target);
    if (held) {
      return heldView(held);
    }
    const openOnly =
      target.clientId !== undefined
        ? this.profile.get('client_id_lookup') === 'open_only'
        : this.profile.get('order_id_lookup') === 'open_only';
    const order = this.find(venue, account, target);
    if (order && !(openOnly && !isOpen(order))) {
      return paradexOrder(venue, order, this.notesOf(order));
    }
    const unplaced = this.unplacedOf(account, target);
    if (!order && !openOnly && unplaced) {
      return closedUnplaced(unplaced);
    }
    throw target.clientId !== undefined
      ? new ParadexError(404, 'CLIENT_ORDER_ID_NOT_FOUND', 'client order id not found')
      : new ParadexError(404, 'ORDER_ID_NOT_FOUND', 'order id not found');
  }

  /**
   * GET /v1/orders-history: every order of the account, open, new and
   * closed, filtered; as of `history_lag_ms` ago under `history_lag=lagging`.
   */
  history(venue: VenueEngine, account: string, query: URLSearchParams) {
    if (this.profile.get('history_lag') === 'lagging') {
      const asOf = Date.now() - this.timing.ms('history_lag_ms');
      return orderHistory(this.journal.asOf(this.world(), account, asOf), query);
    }
    const orders: ShownOrder[] = [
      ...venue.registry
        .ordersOf(account)
        .map((order) => paradexOrder(venue, order, this.notesOf(order))),
      ...[...this.unplaced.values()]
        .filter((order) => order.account === account)
        .map((order) => closedUnplaced(order)),
      ...this.held.ofAccount(account, null).map((held) => heldView(held)),
    ];
    return orderHistory(orders, query);
  }

  /** GET /v1/orders: the account's open and new orders (of one market when given). */
  open(venue: VenueEngine, account: string, market: string | null) {
    return [
      ...venue.registry
        .open(account)
        .filter((order) => market === null || order.symbol === market)
        .sort((a, b) => a.createdAtMs - b.createdAtMs)
        .map((order) => paradexOrder(venue, order, this.notesOf(order))),
      ...this.held.ofAccount(account, market).map((held) => heldView(held)),
    ];
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
      .map((fill) => {
        const shownId = this.noteOf(fill.accountId, fill.clientOrderId)?.id;
        return paradexFill(venue, fill, shownId ?? String(numericId(fill.orderId)));
      });
  }
}
