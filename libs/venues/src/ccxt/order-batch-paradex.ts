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
 * The public building blocks of ccxt 4.5.84's Paradex class that its
 * createOrders is made of, and its cancelOrders. createOrders signs each
 * order in turn after the request's stamp was taken; built here, each
 * order's `recv_window` (not signed) is set after its signature, so no order
 * of the batch outlives the bound a single placement has.
 */
interface ParadexBlocks {
  authenticateRest(): Promise<unknown>;
  loadMarkets(): Promise<unknown>;
  createOrderRequest(
    symbol: string,
    type: 'limit',
    side: string,
    amount: number,
    price: number,
    params: Record<string, unknown>,
  ): Record<string, unknown>;
  signOrderRequest(request: Record<string, unknown>): Promise<Record<string, unknown>>;
  privatePostOrdersBatch(requests: unknown[]): Promise<unknown>;
  parseOrder(order: unknown): Order;
  cancelOrders(ids: string[], symbol?: string, params?: Record<string, unknown>): Promise<Order[]>;
}

const blocksOf = (exchange: CcxtExchangeLike): ParadexBlocks =>
  exchange as unknown as ParadexBlocks;

/**
 * Paradex's batch endpoints (docs.paradex.trade api/prod/orders/batch and
 * cancel-batch; one unit of the account's order limit for 1-50 orders,
 * trading/api-best-practices):
 *
 * - `POST /v1/orders/batch`: 1 to 10 orders (the endpoint's page; ccxt's
 *   `createOrders` max too), each queued on its own as a single placement is
 *   (answered NEW; its fate follows, as a single's). The answer is 201
 *   `{orders, errors}`: `errors` carries no index (ccxt appends each after
 *   the orders as a `rejected` one), so an order is known by its client id
 *   among `orders`.
 * - `DELETE /v1/orders/batch {order_ids}`, orders of any markets: a result
 *   per id, QUEUED_FOR_CANCELLATION (a single cancel's 204), ALREADY_CLOSED
 *   or NOT_FOUND; ccxt's cancelOrders keeps each in `info`.
 */
export const PARADEX_BATCHES: VenueBatchRequests = {
  placements: { max: 10 },
  cancels: { max: 50 },
  minPlacements: 2,
  sends: hasBlocks<ParadexBlocks>('signOrderRequest', 'privatePostOrdersBatch', 'cancelOrders'),
  createOrders: paradexCreateOrders,
  cancelOrders: paradexCancelOrders,
};

async function paradexCreateOrders(
  exchange: CcxtExchangeLike,
  entries: readonly BatchPlacement[],
  expiry: BatchExpiry,
): Promise<Array<ElementAnswer<Order>>> {
  const paradex = blocksOf(exchange);
  await paradex.authenticateRest();
  await paradex.loadMarkets();
  const orders: Array<Record<string, unknown>> = [];
  for (const entry of entries) {
    orders.push(await signedOrder(paradex, entry, expiry));
  }
  const answer = (await paradex.privatePostOrdersBatch(orders)) as BatchAnswer | undefined;
  const queued = (answer?.orders ?? []).map((order) => paradex.parseOrder(order));
  const errors = answer?.errors ?? [];
  const answers = entries.map((entry) => takeQueued(queued, entry));
  const unqueued = answers.filter((answer) => answer === undefined).length;
  return answers.map((answer) => answer ?? unqueuedAnswer(exchange, errors, unqueued, expiry));
}

/** `POST /v1/orders/batch`'s 201. */
interface BatchAnswer {
  orders?: unknown[];
  errors?: unknown[];
}

/**
 * One order as ccxt's createOrders builds and signs it, its `recv_window`
 * counted from its own signature's timestamp to the end of the request's
 * life (`sentAtMs` + the window the request was stamped with): what a single
 * placement signed at once gets.
 */
async function signedOrder(
  paradex: ParadexBlocks,
  { unified, args }: BatchPlacement,
  expiry: BatchExpiry,
): Promise<Record<string, unknown>> {
  const { side, amount, price, params } = args;
  const request = paradex.createOrderRequest(unified, 'limit', side, amount, price, {
    ...expiry.params,
    ...params,
  });
  const signed = await paradex.signOrderRequest(request);
  const window = Number(expiry.params['recv_window']);
  if (Number.isFinite(window)) {
    const signedAtMs = Number(signed['signature_timestamp']);
    signed['recv_window'] = Math.max(1, expiry.sentAtMs + window - signedAtMs);
  }
  return signed;
}

/** The queued order with this placement's client id, taken from the list (each answers one placement). */
function takeQueued(queued: Order[], entry: BatchPlacement): ElementAnswer<Order> | undefined {
  const sentId = String(entry.args.params['clientOrderId']);
  const at = queued.findIndex((order) => order.clientOrderId === sentId);
  return at < 0 ? undefined : { value: queued.splice(at, 1)[0]! };
}

/**
 * A placement the answer did not queue: refused, but `errors` does not say
 * which error is whose. Where every such placement has an error and all are
 * one refusal, each met it (as ccxt raises it for that refusal of a single
 * placement); otherwise its fate is unknown until looked up.
 */
function unqueuedAnswer(
  exchange: CcxtExchangeLike,
  errors: unknown[],
  unqueued: number,
  expiry: BatchExpiry,
): ElementAnswer<Order> {
  const kinds = new Set(errors.map((error) => (error as { error?: unknown }).error));
  const refusal =
    errors.length === unqueued && kinds.size === 1 ? refusalIn(exchange, errors[0]) : undefined;
  return { error: refusal ?? expiry.missing() };
}

async function paradexCancelOrders(
  exchange: CcxtExchangeLike,
  entries: readonly BatchCancel[],
  expiry: BatchExpiry,
): Promise<Array<ElementAnswer<true>>> {
  const ids = entries.map(({ orderId }) => orderId);
  const results = await blocksOf(exchange).cancelOrders(ids, undefined, expiry.params);
  return entries.map(({ orderId }) => {
    const result = results.find((order) => order.id === orderId)?.info as
      { status?: unknown } | undefined;
    return cancelAnswer(exchange, result?.status, expiry);
  });
}

/**
 * The single cancel's answer (api/prod/orders/cancel) to what a batch result
 * says: QUEUED_FOR_CANCELLATION is its 204; ALREADY_CLOSED its
 * `ORDER_IS_CLOSED` refusal ("Orders that are already in a CLOSED state
 * cannot be canceled"), NOT_FOUND its `ORDER_ID_NOT_FOUND`, each raised as
 * ccxt raises it; no result, or another word, tells nothing.
 */
const SINGLE_CANCEL_REFUSALS: Readonly<Record<string, { error: string; message: string }>> = {
  ALREADY_CLOSED: { error: 'ORDER_IS_CLOSED', message: 'order is closed' },
  NOT_FOUND: { error: 'ORDER_ID_NOT_FOUND', message: 'order id not found' },
};

function cancelAnswer(
  exchange: CcxtExchangeLike,
  status: unknown,
  expiry: BatchExpiry,
): ElementAnswer<true> {
  if (status === 'QUEUED_FOR_CANCELLATION') {
    return { value: true };
  }
  const alone = SINGLE_CANCEL_REFUSALS[String(status)];
  return { error: (alone && refusalIn(exchange, alone)) ?? expiry.missing() };
}
