import type { HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { engineOrderId, numericId } from '../engine-ids';
import { ExtendedError, type ExtendedAccount } from './extended-accounts';
import { parseOrder, type ParsedOrder } from './extended-order-request';
import {
  extendedOrder,
  extendedTrade,
  unplacedOrder,
  type OrderNotes,
  type Unplaced,
} from './extended-order-views';
import { checkSettlement } from './extended-settlement';

export { extendedOrder, extendedTrade, type ExtendedTif } from './extended-order-views';

export const EXTENDED = 'extended';

const MAX_REMEMBERED = 10_000;

/**
 * Extended's orders over the engine. `POST /api/v1/user/order` carries a
 * StarkEx settlement signed with the account's stark key (extended-signing.ts):
 * the venue rebuilds it from the order (its quantity and value in the assets'
 * resolutions, the fee cap, the expiry plus 14 days, the nonce as salt, the
 * account's vault) and refuses an order whose signature does not verify (1101).
 * Placement answers `{id, externalId}` only; the order's status (NEW resting,
 * PARTIALLY_FILLED, FILLED, CANCELLED, or REJECTED with a `statusReason`
 * such as `POST_ONLY_FAILED`) is what `GET /api/v1/user/orders/...` and the
 * account stream say after.
 */
export class ExtendedOrders {
  private readonly notes = new Map<string, OrderNotes>();
  private readonly unplaced = new Map<string, Unplaced>();
  private seq = 0;
  /** Told of an order rejected before the book. */
  onUnplaced: (wallet: string, order: unknown) => void = () => undefined;

  constructor(private readonly deps: DialectDeps) {}

  notesOf(order: EngineOrder): OrderNotes {
    return (
      this.notes.get(order.orderId) ?? {
        tif: order.type === 'ioc' ? 'IOC' : 'GTT',
        postOnly: order.type !== 'ioc',
      }
    );
  }

  place(
    request: SignedRequest,
    account: ExtendedAccount,
    body: Record<string, unknown>,
  ): Promise<HttpReply> {
    const order = parseOrder(body);
    const kind = order.tif === 'IOC' ? 'ioc' : 'post_only';
    return this.deps.orders.execute(request, { op: 'place', fields: { type: kind } }, (venue) => {
      const market = venue.markets.get(order.market);
      if (!market) {
        throw new ExtendedError(400, 1001, 'Market not found.');
      }
      checkSettlement(
        account,
        order,
        market,
        this.deps.world().venue(EXTENDED).profile.takerFeeBps,
      );
      const createdTime = Date.now();
      let id: string;
      try {
        const outcome = venue.desk.place(request.accountId, {
          symbol: order.market,
          side: order.side === 'BUY' ? 'buy' : 'sell',
          type: kind,
          price: order.price,
          size: order.qty,
          clientOrderId: order.externalId,
        });
        if (outcome.duplicate) {
          throw new ExtendedError(400, 1134, 'Duplicate Order.');
        }
        this.notes.set(outcome.order.orderId, { tif: order.tif, postOnly: order.postOnly });
        id = String(numericId(outcome.order.orderId));
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 'post_only_would_cross') {
          id = this.reject(account, request.accountId, order, 'POST_ONLY_FAILED', createdTime);
        } else if (code === 'insufficient_margin') {
          throw new ExtendedError(400, 1140, 'New order cost exceeds available balance.');
        } else if (code === 'duplicate_client_order_id') {
          throw new ExtendedError(400, 1134, 'Duplicate Order.');
        } else if (code === 'invalid_order') {
          const reason = (error as { reason?: unknown }).reason;
          if (reason === 'invalid_tick') {
            throw new ExtendedError(400, 1124, 'Invalid price due to wrong price movement.');
          }
          if (reason === 'below_min_size') {
            throw new ExtendedError(400, 1120, 'Order quantity less than min trade size.');
          }
          throw new ExtendedError(400, 1121, 'Invalid quantity due to the wrong size increment.');
        } else {
          throw error;
        }
      }
      return { status: 200, body: { status: 'OK', data: { id, externalId: order.externalId } } };
    });
  }

  /** DELETE /api/v1/user/order/{id} or ?externalId=: `{status: "OK"}`, the order canceled. */
  cancel(request: SignedRequest, target: { id?: string; externalId?: string }): Promise<HttpReply> {
    return this.deps.orders.execute(request, { op: 'cancel', fields: {} }, (venue) => {
      const order = this.find(venue, request.accountId, target);
      if (!order || (order.status !== 'open' && order.status !== 'partially_filled')) {
        throw new ExtendedError(404, 1142, 'Order not found.');
      }
      venue.desk.cancel(request.accountId, { orderId: order.orderId });
      return { status: 200, body: { status: 'OK' } };
    });
  }

  lookup(
    venue: VenueEngine,
    account: ExtendedAccount,
    wallet: string,
    target: { id?: string; externalId?: string },
  ) {
    const order = this.find(venue, wallet, target);
    if (order) {
      return extendedOrder(venue, order, account.accountId, this.notesOf(order));
    }
    const unplaced =
      target.id !== undefined
        ? this.unplaced.get(target.id)
        : [...this.unplaced.values()].find(
            (entry) => entry.wallet === wallet && entry.externalId === target.externalId,
          );
    if (unplaced && unplaced.wallet === wallet) {
      return unplacedOrder(unplaced);
    }
    throw new ExtendedError(404, 1142, 'Order not found.');
  }

  open(venue: VenueEngine, account: ExtendedAccount, wallet: string, market: string | null) {
    return venue.registry
      .open(wallet)
      .filter((order) => market === null || order.symbol === market)
      .sort((a, b) => a.createdAtMs - b.createdAtMs)
      .map((order) => extendedOrder(venue, order, account.accountId, this.notesOf(order)));
  }

  trades(venue: VenueEngine, account: ExtendedAccount, wallet: string, query: URLSearchParams) {
    const market = query.get('market');
    const limit = Math.min(Number(query.get('limit') ?? 1000), 5000);
    return venue.registry
      .fillsSince(wallet, 0)
      .filter((fill) => market === null || fill.symbol === market)
      .slice(-limit)
      .map((fill) => extendedTrade(venue, fill, account.accountId));
  }

  private find(venue: VenueEngine, wallet: string, target: { id?: string; externalId?: string }) {
    if (target.externalId !== undefined) {
      return venue.registry.byClientOrderId(wallet, target.externalId);
    }
    const engineId = target.id !== undefined ? engineOrderId(target.id) : undefined;
    return engineId ? venue.registry.get(wallet, engineId) : undefined;
  }

  private reject(
    account: ExtendedAccount,
    wallet: string,
    order: ParsedOrder,
    statusReason: string,
    createdTime: number,
  ): string {
    this.seq += 1;
    const id = String(900_000_000_000_000 + this.seq);
    const entry: Unplaced = {
      id,
      account: account.accountId,
      wallet,
      externalId: order.externalId,
      market: order.market,
      side: order.side,
      qty: order.qty,
      price: order.price,
      tif: order.tif,
      postOnly: order.postOnly,
      statusReason,
      createdTime,
    };
    this.unplaced.set(id, entry);
    if (this.unplaced.size > MAX_REMEMBERED) {
      this.unplaced.delete(this.unplaced.keys().next().value as string);
    }
    this.onUnplaced(wallet, unplacedOrder(entry));
    return id;
  }
}
