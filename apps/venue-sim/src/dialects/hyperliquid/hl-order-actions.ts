import type { HttpReply } from '../../api/http-kit';
import { HttpFailure } from '../../api/http-kit';
import type { OrderKind, OrderOp } from '../../control/faults';
import type { MarketState } from '../../engine/market-state';
import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { checkBuilder, ok } from './hl-approvals';
import { HlActionError, HlBodyError, HlOrderError, hlText, orderRefusal } from './hl-errors';
import {
  CLOID,
  arrayOf,
  parseWireOrder,
  targetOf,
  type ActionCall,
  type WireOrder,
} from './hl-exchange-request';
import { bbo, checkOrder, isCode, placed, rejectionStatus } from './hl-order-rules';
import type { HlState } from './hl-state';
import { HYPERLIQUID, universe, type HlTif } from './hl-wire';

export interface HlExchangeDeps extends DialectDeps {
  state: HlState;
}

/**
 * The order actions of `/exchange` (`order`, `cancel`, `cancelByCloid`,
 * `modify`, `batchModify`) and the acknowledged ones, each run through the
 * shared order path (OrderEntry: rate limit, faults, expiry, engine).
 */
export class HlOrderActions {
  private cloidlessSeq = 0;

  constructor(private readonly deps: HlExchangeDeps) {}

  /** `order`: each order answered by its own status, in the order sent. */
  order(call: ActionCall): Promise<HttpReply> {
    const { action } = call;
    const orders = arrayOf(action['orders']).map(parseWireOrder);
    if (orders.length === 0 || action['grouping'] !== 'na') {
      if (action['grouping'] === 'normalTpsl' || action['grouping'] === 'positionTpsl') {
        throw new HlActionError(hlText.unsupported('TP/SL groupings'));
      }
      throw new HlBodyError();
    }
    for (const order of orders) {
      this.asset(order.a);
    }
    checkBuilder(this.deps.state, call.request.accountId, action['builder']);
    const first = orders[0];
    const kind: OrderKind = first.t.limit?.tif === 'Ioc' ? 'ioc' : 'post_only';
    return this.run(call, 'place', kind, (venue) => ({
      statuses: orders.map((order) => this.placeOne(venue, call.request.accountId, order)),
    }));
  }

  private placeOne(venue: VenueEngine, accountId: string, order: WireOrder): unknown {
    const market = this.market(venue, order.a);
    try {
      const tif = checkOrder(market, order);
      const clientOrderId = order.c
        ? this.cloidFor(venue, accountId, order.c.toLowerCase(), order.a)
        : this.cloidless();
      try {
        const outcome = venue.desk.place(accountId, {
          symbol: market.spec.symbol,
          side: order.b ? 'buy' : 'sell',
          type: tif === 'Ioc' ? 'ioc' : 'post_only',
          price: order.p,
          size: order.s,
          clientOrderId,
          ...(order.r ? this.reduceOnly() : {}),
        });
        // The engine's idempotent replay (same cloid, same order) is no
        // answer the venue gives: it refuses the cloid as any other reuse.
        if (outcome.duplicate) {
          throw new HlOrderError(hlText.duplicateCloid(order.a));
        }
        this.deps.state.setTif(outcome.order.orderId, tif);
        return placed(venue, outcome.order, order.c);
      } catch (error) {
        if (tif === 'Gtc' && isCode(error, 'post_only_would_cross')) {
          throw new HlOrderError(hlText.gtcWouldCross(order.a));
        }
        throw error;
      }
    } catch (error) {
      const text = orderRefusal(error, order.a, () => bbo(market));
      if (order.c) {
        this.rememberRejection(accountId, market, order, text);
      }
      return { error: text };
    }
  }

  /**
   * `r: true`: the engine takes the order down to the position on its other
   * side, or refuses it (`Reduce only order would increase position.`); the
   * $10 minimum is the reading `reduce_only_min_value`'s.
   */
  private reduceOnly() {
    const waived = this.deps.state.profile.get('reduce_only_min_value') === 'waived';
    return {
      reduceOnly: true,
      reduceOnlyMinimums: waived ? ('waive_notional' as const) : ('apply' as const),
    };
  }

  /**
   * The engine client id for an order sent with a cloid. A cloid no order
   * carries is the order's own. One an earlier order carries is refused
   * (`Duplicate cloid`), for good under the reading `duplicate_cloid=refuse`,
   * only while that order rests under `refuse_while_open` (a filled or
   * canceled one leaves the cloid to the new order).
   */
  private cloidFor(venue: VenueEngine, accountId: string, cloid: string, asset: number): string {
    const known = this.deps.state.orderByCloid(venue.registry, accountId, cloid);
    if (!known) {
      return this.deps.state.cloidOrder(accountId, cloid);
    }
    const open = known.status === 'open' || known.status === 'partially_filled';
    if (open || this.deps.state.profile.get('duplicate_cloid') === 'refuse') {
      throw new HlOrderError(hlText.duplicateCloid(asset));
    }
    return this.deps.state.reuseCloid(accountId, cloid);
  }

  /** An order named by oid, or by cloid: the newest order sent with that cloid. */
  private target(accountId: string, id: number | string) {
    return typeof id === 'string'
      ? { clientOrderId: this.deps.state.cloidOrder(accountId, id.toLowerCase()) }
      : targetOf(id);
  }

  private rememberRejection(
    accountId: string,
    market: MarketState,
    order: WireOrder,
    text: string,
  ): void {
    const tif = (order.t.limit?.tif ?? 'Gtc') as HlTif;
    this.deps.state.reject(accountId, {
      coin: market.spec.symbol,
      side: order.b ? 'B' : 'A',
      limitPx: order.p,
      sz: order.s,
      tif,
      cloid: order.c!.toLowerCase(),
      status: rejectionStatus(text, tif),
      timestamp: Date.now(),
      ...(order.r ? { reduceOnly: true } : {}),
    });
  }

  /** `cancel` ({a, o}) and `cancelByCloid` ({asset, cloid}): `success` or an error per cancel. */
  cancel(call: ActionCall, by: 'o' | 'cloid'): Promise<HttpReply> {
    const cancels = arrayOf(call.action['cancels']).map((entry) => {
      const asset = by === 'o' ? entry['a'] : entry['asset'];
      const id = by === 'o' ? entry['o'] : entry['cloid'];
      if (!Number.isSafeInteger(asset)) {
        throw new HlBodyError();
      }
      if (by === 'o' ? !Number.isSafeInteger(id) : !(typeof id === 'string' && CLOID.test(id))) {
        throw new HlBodyError();
      }
      return { asset: asset as number, id: id as number | string };
    });
    if (cancels.length === 0) {
      throw new HlBodyError();
    }
    for (const { asset } of cancels) {
      this.asset(asset);
    }
    return this.run(call, 'cancel', undefined, (venue) => ({
      statuses: cancels.map(({ asset, id }) => {
        const market = this.market(venue, asset);
        try {
          const target = this.target(call.request.accountId, id);
          const order = venue.desk.find(call.request.accountId, target);
          if (order.symbol !== market.spec.symbol) {
            throw new HlOrderError(hlText.cancelMissing(asset));
          }
          venue.desk.cancel(call.request.accountId, target);
          return 'success';
        } catch (error) {
          return { error: orderRefusal(error, asset, () => bbo(market)) };
        }
      }),
    }));
  }

  /** `modify` / `batchModify`: the order is canceled and its replacement placed (a new oid). */
  modify(call: ActionCall, modifies: Record<string, unknown>[]): Promise<HttpReply> {
    const parsed = modifies.map((entry) => {
      const oid = entry['oid'];
      if (!Number.isSafeInteger(oid) && !(typeof oid === 'string' && CLOID.test(oid))) {
        throw new HlBodyError();
      }
      return { oid: oid as number | string, order: parseWireOrder(entry['order']) };
    });
    if (parsed.length === 0) {
      throw new HlBodyError();
    }
    for (const { order } of parsed) {
      this.asset(order.a);
    }
    const kind: OrderKind = parsed[0].order.t.limit?.tif === 'Ioc' ? 'ioc' : 'post_only';
    return this.run(
      call,
      'replace',
      kind,
      (venue) => ({
        statuses: parsed.map(({ oid, order }) => {
          let known: EngineOrder;
          try {
            known = venue.desk.find(
              call.request.accountId,
              this.target(call.request.accountId, oid),
            );
          } catch {
            return { error: 'Cannot modify canceled or filled order' };
          }
          if (known.status !== 'open' && known.status !== 'partially_filled') {
            return { error: 'Cannot modify canceled or filled order' };
          }
          venue.desk.cancel(call.request.accountId, { orderId: known.orderId });
          return this.placeOne(venue, call.request.accountId, order);
        }),
      }),
      'order',
    );
  }

  /** An action that changes nothing the engine keeps, admitted like any request. */
  async acknowledge(call: ActionCall, check: () => void): Promise<HttpReply> {
    check();
    return this.deps.orders.execute(call.request, undefined, () => ok());
  }

  /**
   * Runs an order action through the shared order path. A refusal of the
   * whole request there (reject-next, the engine refusing) is every order's
   * status error; rate limits, halts and expiry refuse the action.
   */
  private async run(
    call: ActionCall,
    op: OrderOp,
    kind: OrderKind | undefined,
    answer: (venue: VenueEngine) => { statuses: unknown[] },
    responseType: string = op === 'cancel' ? 'cancel' : 'order',
  ): Promise<HttpReply> {
    const fields = {
      ...(kind ? { type: kind } : {}),
      ...(call.expiresAfter !== undefined ? { expires_at_ms: call.expiresAfter } : {}),
    };
    try {
      return await this.deps.orders.execute(call.request, { op, fields }, (venue) => ({
        status: 200,
        body: { status: 'ok', response: { type: responseType, data: answer(venue) } },
      }));
    } catch (error) {
      if (error instanceof HttpFailure && error.code === 'order_expired') {
        throw new HlActionError(hlText.expired(call.expiresAfter ?? 0, Date.now()));
      }
      const count = arrayOf(
        call.action['orders'] ?? call.action['cancels'] ?? call.action['modifies'],
      ).length;
      let text: string;
      try {
        text = orderRefusal(error, 0, () => '');
      } catch {
        throw error;
      }
      return {
        status: 200,
        body: {
          status: 'ok',
          response: {
            type: responseType,
            data: { statuses: Array.from({ length: Math.max(count, 1) }, () => ({ error: text })) },
          },
        },
      };
    }
  }

  private market(venue: VenueEngine, asset: number): MarketState {
    const market = universe(venue)[asset];
    if (!market) {
      throw new HlActionError(`Unknown asset ${asset}.`);
    }
    return market;
  }

  asset(value: unknown): number {
    if (!Number.isSafeInteger(value)) {
      throw new HlBodyError();
    }
    const venue = this.deps.world().venue(HYPERLIQUID);
    this.market(venue, value as number);
    return value as number;
  }

  /** An order without a cloid still needs an engine client id; it reports `cloid: null`. */
  private cloidless(): string {
    this.cloidlessSeq += 1;
    return `hl-${Date.now().toString(36)}-${this.cloidlessSeq}`;
  }
}
