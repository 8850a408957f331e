import { AnswerLost, type HttpReply } from '../../api/http-kit';
import type { OrderEntry, SignedRequest } from '../../api/order-entry';
import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectProfile } from '../dialect-profiles';
import type { PublishedLimits } from '../published-limits';
import { parseBatchCancel, parseBatchOrders } from './aster-batch-requests';
import { cancelOnEngine } from './aster-cancels';
import { AsterError, toAsterError, type AsterErrorContext } from './aster-errors';
import { parseNewOrder, type AsterNewOrder } from './aster-orders';
import type { AsterPlacement } from './aster-placement';
import { NEW_ORDER, batchOfNewOrders, withOrderCount } from './aster-rate-limits';
import type { ASTER_READINGS } from './aster-readings';
import { asterRequestExpiry } from './aster-request-expiry';
import type { AsterSignedRequest } from './aster-signing';
import { asterOrder, type AsterTif } from './aster-wire';

/** A signed batch request, as the REST routes hand it on. */
export interface BatchCall {
  params: Record<string, string>;
  signed: AsterSignedRequest;
  request: SignedRequest;
  accountId: string;
  source: string;
}

/** What the batch endpoints share with the single-order routes. */
export interface BatchHost {
  orders: OrderEntry;
  placement: AsterPlacement;
  profile: DialectProfile<typeof ASTER_READINGS>;
  limits: PublishedLimits;
  clientOrderId: () => string;
  rememberTif: (orderId: string, tif: AsterTif) => void;
  tifOf: (order: EngineOrder) => AsterTif;
}

/** An element of a placement batch: the order and its answer form, or its own refusal. */
type Element = { order: AsterNewOrder; answer: 'ack' | 'result' } | AsterError;

/**
 * Aster's batch endpoints (`POST` / `DELETE /fapi/v3/batchOrders`): one
 * request, one pass through the shared order path (one lose-next, latency,
 * freeze, expiry and reject-next for the whole request), and in the engine
 * step each element on its own. The answer is a list in request order, each
 * element an order or the `{code, msg}` of its refusal ("The order of
 * returned contents for batch orders is the same as the order of the order
 * list"; the examples show `{"code": -2022, ...}` and `{"code": -2011, ...}`
 * among orders). The document says batch orders "are processed concurrently,
 * and the order of matching is not guaranteed": here they match in list
 * order, one of the orders it allows.
 */
export class AsterBatchOrders {
  constructor(private readonly host: BatchHost) {}

  async place(call: BatchCall): Promise<HttpReply> {
    const elements = parseBatchOrders(call.params).map((params) => this.element(params));
    const orders = elements.filter((e): e is Exclude<Element, AsterError> => !isRefusal(e));
    if (orders.length > 0) {
      const perOrder = this.host.profile.get('batch_order_count') === 'per_order';
      const counted = perOrder ? batchOfNewOrders(orders.length) : NEW_ORDER;
      this.host.limits.admit(counted, call.source, call.accountId);
    }
    const kinds = new Set(orders.map(({ order }) => order.kind));
    const fields = {
      // A lose-next rule on an order type takes a batch of that type only.
      ...(kinds.size === 1 ? { type: [...kinds][0] } : {}),
      ...asterRequestExpiry(call.signed, this.host.profile),
    };
    const reply = await this.host.orders.execute(
      call.request,
      { op: 'place', fields },
      (venue) => ({
        status: 200,
        body: elements.map((element) => this.placeOne(venue, call.accountId, element)),
      }),
    );
    return withOrderCount(reply, this.host.limits, call.source, call.accountId);
  }

  cancel(call: BatchCall): Promise<HttpReply> {
    const { symbol, targets } = parseBatchCancel(call.params);
    const fields = asterRequestExpiry(call.signed, this.host.profile);
    return this.host.orders.execute(call.request, { op: 'cancel', fields }, (venue) => ({
      status: 200,
      body: targets.map((target) =>
        isRefusal(target)
          ? refusalBody(target)
          : answerOrRefusal({ cancel: true }, () => {
              const order = cancelOnEngine(venue, call.accountId, symbol, target);
              return asterOrder(venue, order, this.host.tifOf(order));
            }),
      ),
    }));
  }

  /** An element's parameters as New Order reads them; its refusal is its answer. */
  private element(params: Record<string, string>): Element {
    try {
      return {
        order: parseNewOrder(params, this.host.clientOrderId),
        answer: this.host.placement.answerOf(params),
      };
    } catch (error) {
      const refusal = toAsterError(error);
      if (refusal instanceof AnswerLost) {
        throw refusal;
      }
      return refusal;
    }
  }

  private placeOne(venue: VenueEngine, accountId: string, element: Element): unknown {
    if (isRefusal(element)) {
      return refusalBody(element);
    }
    const { order, answer } = element;
    return answerOrRefusal({ tif: order.tif }, () => {
      const placed = this.host.placement.place(venue, accountId, order);
      this.host.rememberTif(placed.orderId, order.tif);
      return this.host.placement.answer(venue, placed, order.tif, answer);
    });
  }
}

const isRefusal = (value: unknown): value is AsterError => value instanceof AsterError;

const refusalBody = (refusal: AsterError) => ({ code: refusal.code, msg: refusal.message });

/** One element's answer: what it made, or its refusal in Aster's words. */
function answerOrRefusal(context: AsterErrorContext, act: () => unknown): unknown {
  try {
    return act();
  } catch (error) {
    const refusal = toAsterError(error, context);
    if (refusal instanceof AnswerLost) {
      throw refusal;
    }
    return refusalBody(refusal);
  }
}
