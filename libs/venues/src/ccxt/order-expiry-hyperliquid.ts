import type { Order } from 'ccxt';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import type { CreateArgs } from './create-order-args';

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
export function hasExpiryBlocks(exchange: CcxtExchangeLike): boolean {
  const blocks = exchange as unknown as Partial<Record<keyof HyperliquidBlocks, unknown>>;
  return (
    typeof blocks.createOrdersRequest === 'function' &&
    typeof blocks.cancelOrdersRequest === 'function' &&
    typeof blocks.signL1Action === 'function' &&
    typeof blocks.privatePostExchange === 'function'
  );
}

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

/** ccxt's createOrder (a limit order) with `expiresAfter`: the same request, answer and errors. */
export async function hyperliquidCreateOrder(
  exchange: CcxtExchangeLike,
  unified: string,
  args: CreateArgs,
  expiresAfter: number,
): Promise<Order> {
  const blocks = exchange as unknown as HyperliquidBlocks;
  await blocks.loadMarkets();
  const [order, globalParams] = blocks.parseCreateEditOrderArgs(
    undefined,
    unified,
    'limit',
    args.side,
    args.amount,
    args.price,
    args.params,
  );
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
