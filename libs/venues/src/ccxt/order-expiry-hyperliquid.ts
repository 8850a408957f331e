import type { Order } from 'ccxt';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import type { CreateArgs } from './create-order-args';
import { hasBlocks, refusalIn, type ElementAnswer, type VenueBatchRequests } from './order-batch';

/**
 * The public building blocks of ccxt 4.5.84's Hyperliquid class that its
 * createOrder and cancelOrder are made of. Its createOrder signs the action
 * without `expiresAfter`; the same blocks sign it with one.
 */
interface HyperliquidBlocks {
  loadMarkets(): Promise<unknown>;
  initializeClient(): Promise<unknown>;
  parseCreateEditOrderArgs(
    id: undefined,
    symbol: string,
    type: string,
    side: string,
    amount: number,
    price: number,
    params: Record<string, unknown>,
  ): [Record<string, unknown>, Record<string, unknown>];
  createOrdersRequest(
    orders: Array<Record<string, unknown>>,
    params: Record<string, unknown>,
  ): ExchangeRequest;
  cancelOrdersRequest(
    ids: string[],
    symbol: string,
    params: Record<string, unknown>,
  ): ExchangeRequest;
  signL1Action(
    action: unknown,
    nonce: number,
    vaultAddress: string | undefined,
    expiresAfter: number,
  ): unknown;
  privatePostExchange(request: ExchangeRequest): Promise<unknown>;
  parseOrders(orders: unknown[]): Order[];
}

/**
 * Whether the instance has ccxt's building blocks (a test's scripted
 * exchange may not): without them the client sends ccxt's createOrder and
 * claims no expiry.
 */
export const hasExpiryBlocks = hasBlocks<HyperliquidBlocks>(
  'createOrdersRequest',
  'cancelOrdersRequest',
  'signL1Action',
  'privatePostExchange',
);

/** The body of `POST /exchange`. */
interface ExchangeRequest {
  action: unknown;
  nonce: number;
  signature: unknown;
  vaultAddress?: string;
  expiresAfter?: number;
}

/**
 * The request with `expiresAfter` (ms epoch) signed into it: Hyperliquid
 * refuses an action that reaches it after that time (docs, exchange
 * endpoint, "expiresAfter"; the hash carries it as in the Python SDK's
 * `action_hash`). An expired action weighs 5 times an action against the
 * address's rate limit (docs, exchange endpoint): only a request already late
 * pays that.
 */
function expiring(
  blocks: HyperliquidBlocks,
  request: ExchangeRequest,
  expiresAfter: number,
): ExchangeRequest {
  const { action, nonce, vaultAddress } = request;
  return {
    ...request,
    signature: blocks.signL1Action(action, nonce, vaultAddress, expiresAfter),
    expiresAfter,
  };
}

/** What `statuses` of an order action's answer say, parsed as ccxt's createOrders parses them. */
function parsedStatuses(blocks: HyperliquidBlocks, response: unknown): Order[] {
  const data = (response as { response?: { data?: { statuses?: unknown[] } } } | undefined)
    ?.response?.data;
  const statuses = (data?.statuses ?? []).map((status) =>
    status === 'waitingForTrigger' ? { status } : status,
  );
  return blocks.parseOrders(statuses);
}

/** A limit order as ccxt's createOrder builds it: the order, and the action's own params. */
function limitOrderArgs(
  blocks: HyperliquidBlocks,
  unified: string,
  args: CreateArgs,
): [Record<string, unknown>, Record<string, unknown>] {
  const { side, amount, price, params } = args;
  return blocks.parseCreateEditOrderArgs(undefined, unified, 'limit', side, amount, price, params);
}

/** ccxt's createOrder (a limit order) with `expiresAfter`: the same request, answer and errors. */
export async function hyperliquidCreateOrder(
  exchange: CcxtExchangeLike,
  unified: string,
  args: CreateArgs,
  expiresAfter: number,
): Promise<Order> {
  const blocks = exchange as unknown as HyperliquidBlocks;
  await blocks.loadMarkets();
  const [order, globalParams] = limitOrderArgs(blocks, unified, args);
  await blocks.initializeClient();
  const request = blocks.createOrdersRequest([order], globalParams);
  const response = await blocks.privatePostExchange(expiring(blocks, request, expiresAfter));
  const [placed] = parsedStatuses(blocks, response);
  return placed!;
}

/** ccxt's cancelOrder (by order id) with `expiresAfter`: ccxt raises the same errors from the answer. */
export async function hyperliquidCancelOrder(
  exchange: CcxtExchangeLike,
  orderId: string,
  unified: string,
  expiresAfter: number,
): Promise<unknown> {
  const blocks = exchange as unknown as HyperliquidBlocks;
  await blocks.loadMarkets();
  await blocks.initializeClient();
  const request = blocks.cancelOrdersRequest([orderId], unified, {});
  return blocks.privatePostExchange(expiring(blocks, request, expiresAfter));
}

/** What one element of an order action is answered with: `{resting}`, `{filled}` or `{error}`. */
type ElementStatus = string | { error?: string } | Record<string, unknown>;

/** The `statuses` of an action's answer, in the order of its elements; undefined when it has none. */
function statusesOf(answer: unknown): ElementStatus[] | undefined {
  const statuses = (answer as { response?: { data?: { statuses?: unknown } } } | undefined)
    ?.response?.data?.statuses;
  return Array.isArray(statuses) ? (statuses as ElementStatus[]) : undefined;
}

/**
 * The answer ccxt raised on, from its error (`hyperliquid <body>`): ccxt
 * 4.5.84 raises the first refused element's error for a batch, though the
 * answer tells every element's fate and the others rest.
 */
function answerIn(error: unknown): unknown {
  const message = error instanceof Error ? error.message : '';
  const at = message.indexOf(' {');
  if (at < 0) {
    return undefined;
  }
  try {
    return JSON.parse(message.slice(at + 1)) as unknown;
  } catch {
    return undefined;
  }
}

/** Sends a batched action: its answer, also one ccxt raised on for a refused element. */
async function sendBatch(blocks: HyperliquidBlocks, request: ExchangeRequest): Promise<unknown> {
  try {
    return await blocks.privatePostExchange(request);
  } catch (error) {
    const answer = answerIn(error);
    if (statusesOf(answer) !== undefined) {
      return answer;
    }
    throw error;
  }
}

/** The error ccxt raises for an element's refusal, as for the same refusal of one order alone. */
function elementError(blocks: HyperliquidBlocks, type: string, message: string): unknown {
  const alone = { status: 'ok', response: { type, data: { statuses: [{ error: message }] } } };
  return refusalIn(blocks, alone) ?? new Error(`hyperliquid ${JSON.stringify(alone)}`);
}

/** Each element's answer: its status parsed, its refusal as ccxt's error; a missing one, `missing`. */
function elementAnswers<T>(
  blocks: HyperliquidBlocks,
  type: string,
  answer: unknown,
  count: number,
  parse: (status: ElementStatus) => T,
  missing: () => unknown,
): Array<ElementAnswer<T>> {
  const statuses = statusesOf(answer) ?? [];
  return Array.from({ length: count }, (_, index): ElementAnswer<T> => {
    const status = statuses[index];
    if (status === undefined) {
      return { error: missing() };
    }
    const refusal = typeof status === 'object' ? (status as { error?: unknown }).error : undefined;
    return typeof refusal === 'string'
      ? { error: elementError(blocks, type, refusal) }
      : { value: parse(status) };
  });
}

/**
 * ccxt's createOrders (limit orders) as one action with `expiresAfter`:
 * each order answered as ccxt's createOrder would answer it alone. An
 * answer without an order's status leaves that order to `missing`.
 */
export async function hyperliquidCreateOrders(
  exchange: CcxtExchangeLike,
  entries: ReadonlyArray<{ unified: string; args: CreateArgs }>,
  expiresAfter: number,
  missing: () => unknown,
): Promise<Array<ElementAnswer<Order>>> {
  const blocks = exchange as unknown as HyperliquidBlocks;
  await blocks.loadMarkets();
  const built = entries.map(({ unified, args }) => limitOrderArgs(blocks, unified, args));
  await blocks.initializeClient();
  const request = blocks.createOrdersRequest(
    built.map(([order]) => order),
    built[0]![1],
  );
  const answer = await sendBatch(blocks, expiring(blocks, request, expiresAfter));
  return elementAnswers(
    blocks,
    'order',
    answer,
    entries.length,
    (status) => {
      const parsed = status === 'waitingForTrigger' ? { status } : status;
      return blocks.parseOrders([parsed])[0]!;
    },
    missing,
  );
}

/**
 * Cancels by order id, of any markets, as one `cancel` action with
 * `expiresAfter` (ccxt's own request per order, their cancels joined and
 * signed again): each answered `success`, or the error ccxt's cancelOrder
 * would raise for it alone.
 */
export async function hyperliquidCancelOrders(
  exchange: CcxtExchangeLike,
  entries: ReadonlyArray<{ orderId: string; unified: string }>,
  expiresAfter: number,
  missing: () => unknown,
): Promise<Array<ElementAnswer<true>>> {
  const blocks = exchange as unknown as HyperliquidBlocks;
  await blocks.loadMarkets();
  await blocks.initializeClient();
  const alone = entries.map(({ orderId, unified }) =>
    blocks.cancelOrdersRequest([orderId], unified, {}),
  );
  const first = alone[0]!;
  const cancels = alone.flatMap((request) => (request.action as { cancels: unknown[] }).cancels);
  const request = { ...first, action: { type: 'cancel', cancels } };
  const answer = await sendBatch(blocks, expiring(blocks, request, expiresAfter));
  return elementAnswers(blocks, 'cancel', answer, entries.length, () => true as const, missing);
}

/**
 * Hyperliquid's order and cancel actions of many orders, with `expiresAfter`
 * signed in. At most 39 orders: 1 + floor(n / 40) of the per-IP weight is 1
 * up to there, what one order weighs.
 */
export const HYPERLIQUID_BATCHES: VenueBatchRequests = {
  placements: { max: 39 },
  cancels: { max: 39 },
  minPlacements: 2,
  sends: hasExpiryBlocks,
  createOrders: (exchange, entries, expiry) =>
    hyperliquidCreateOrders(exchange, entries, expiry.expiresAtMs, expiry.missing),
  cancelOrders: (exchange, entries, expiry) =>
    hyperliquidCancelOrders(exchange, entries, expiry.expiresAtMs, expiry.missing),
};
