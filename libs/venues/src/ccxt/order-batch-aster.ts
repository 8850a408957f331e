import type { Order } from 'ccxt';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import {
  hasBlocks,
  refusalIn,
  type BatchCancel,
  type BatchExpiry,
  type BatchPlacement,
  type ElementAnswer,
  type VenueBatchRequests,
} from './order-batch';

/**
 * The public building blocks of ccxt 4.5.84's Aster class that its
 * createOrders and cancelOrders are made of. Those calls answer through
 * `parseOrders`, which sorts the answers by time: a refused order (no time)
 * can no longer be told from the others. The venue answers in the order of
 * the request; the blocks keep that order.
 */
interface AsterBlocks {
  loadMarketsAndSignIn(): Promise<unknown>;
  market(symbol: string): { id: string };
  createOrderRequest(
    symbol: string,
    type: 'limit',
    side: string,
    amount: number,
    price: number,
    params: Record<string, unknown>,
  ): Record<string, unknown>;
  fapiPrivatePostV3BatchOrders(params: Record<string, unknown>): Promise<unknown>;
  fapiPrivateDeleteV3BatchOrders(params: Record<string, unknown>): Promise<unknown>;
  parseOrder(order: unknown, market?: unknown): Order;
}

const blocksOf = (exchange: CcxtExchangeLike): AsterBlocks => exchange as unknown as AsterBlocks;

/** One element of the venue's answer: an order, or the `{code, msg}` of its refusal. */
type Element = Record<string, unknown>;

/** The answer's elements in request order; none where it is no list (every order unanswered). */
const elementsOf = (answer: unknown): Array<Element | undefined> =>
  Array.isArray(answer) ? (answer as Element[]) : [];

/**
 * Aster's batch endpoints (github asterdex/api-docs,
 * V3(Recommended)/EN/aster-finance-futures-api-v3.md):
 *
 * - "Place Multiple Orders", `POST /fapi/v3/batchOrders`: at most 5 orders,
 *   weight 5 of the IP's 2,400 a minute whatever it carries (a placement
 *   alone weighs 1), each order on the account's 1,200 a minute; the answer
 *   lists each order or its refusal `{code, msg}` "in the same order as the
 *   order list".
 * - "Cancel Multiple Orders", `DELETE /fapi/v3/batchOrders`: one `symbol`,
 *   at most 10 ids (`orderIdList`), weight 1; an unknown or closed order is
 *   its element's -2011.
 *
 * The request's `recvWindow` goes with the request, as on a single order.
 */
export const ASTER_BATCHES: VenueBatchRequests = {
  placements: { max: 5 },
  cancels: { max: 10, sameRequest: (entry) => entry.unified },
  // Fewer than 5 weigh more batched (5) than alone (1 each).
  minPlacements: 5,
  sends: hasBlocks<AsterBlocks>(
    'createOrderRequest',
    'fapiPrivatePostV3BatchOrders',
    'fapiPrivateDeleteV3BatchOrders',
  ),
  createOrders: asterCreateOrders,
  cancelOrders: asterCancelOrders,
};

/** ccxt's createOrders request, its answer read in request order. */
async function asterCreateOrders(
  exchange: CcxtExchangeLike,
  entries: readonly BatchPlacement[],
  expiry: BatchExpiry,
): Promise<Array<ElementAnswer<Order>>> {
  const aster = blocksOf(exchange);
  await aster.loadMarketsAndSignIn();
  const batchOrders = entries.map(({ unified, args }) =>
    aster.createOrderRequest(unified, 'limit', args.side, args.amount, args.price, args.params),
  );
  const answer = await aster.fapiPrivatePostV3BatchOrders({ batchOrders, ...expiry.params });
  const elements = elementsOf(answer);
  return entries.map((entry, index) => placementAnswer(exchange, elements[index], entry, expiry));
}

/** ccxt's cancelOrders request (the orders of one market), its answer read in request order. */
async function asterCancelOrders(
  exchange: CcxtExchangeLike,
  entries: readonly BatchCancel[],
  expiry: BatchExpiry,
): Promise<Array<ElementAnswer<true>>> {
  const aster = blocksOf(exchange);
  await aster.loadMarketsAndSignIn();
  const answer = await aster.fapiPrivateDeleteV3BatchOrders({
    symbol: aster.market(entries[0]!.unified).id,
    orderIdList: entries.map(({ orderId }) => orderId),
    ...expiry.params,
  });
  const elements = elementsOf(answer);
  return entries.map((entry, index) => cancelAnswer(exchange, elements[index], entry, expiry));
}

/**
 * An order's element: its refusal as ccxt raises it for the same answer
 * alone, or the order. An element naming another client id than this
 * order's (an answer out of order) tells nothing of this one.
 */
function placementAnswer(
  exchange: CcxtExchangeLike,
  element: Element | undefined,
  entry: BatchPlacement,
  expiry: BatchExpiry,
): ElementAnswer<Order> {
  if (!element) {
    return { error: expiry.missing() };
  }
  const refusal = refusalIn(exchange, element);
  if (refusal !== undefined) {
    return { error: refusal };
  }
  const aster = blocksOf(exchange);
  const order = aster.parseOrder(element, aster.market(entry.unified));
  const sentId = String(entry.args.params['clientOrderId']);
  return order.clientOrderId === sentId ? { value: order } : { error: expiry.missing() };
}

/** A cancel's element: taken (the order as canceled), or its refusal as ccxt raises it alone. */
function cancelAnswer(
  exchange: CcxtExchangeLike,
  element: Element | undefined,
  entry: BatchCancel,
  expiry: BatchExpiry,
): ElementAnswer<true> {
  if (!element) {
    return { error: expiry.missing() };
  }
  const refusal = refusalIn(exchange, element);
  if (refusal !== undefined) {
    return { error: refusal };
  }
  return String(element['orderId']) === entry.orderId
    ? { value: true }
    : { error: expiry.missing() };
}
