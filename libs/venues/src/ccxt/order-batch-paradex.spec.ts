import type { Order } from 'ccxt';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import type { BatchExpiry, BatchPlacement, ElementAnswer } from './order-batch';
import { PARADEX_BATCHES } from './order-batch-paradex';

/** A refusal as ccxt's Paradex raises it: its handleErrors on a body with `error`. */
class ExchangeRefusal extends Error {}

/**
 * ccxt's Paradex building blocks, scripted: each order signed `signDelayMs`
 * after the one before (whole seconds, as ccxt signs), the batch answered
 * with the orders not in `refused` queued and `errors` as given.
 */
function paradexOf(options: {
  startMs: number;
  signDelayMs?: number;
  refused?: string[];
  errors?: unknown[];
  results?: unknown[];
}) {
  const sent: Array<Record<string, unknown>> = [];
  let clock = options.startMs;
  const exchange = {
    authenticateRest: () => Promise.resolve(),
    loadMarkets: () => Promise.resolve({}),
    createOrderRequest: (
      symbol: string,
      _type: string,
      side: string,
      amount: number,
      price: number,
      params: Record<string, unknown>,
    ) => ({ market: symbol, side, size: amount, price, ...params }),
    signOrderRequest: (request: Record<string, unknown>) => {
      const signedAt = Math.floor(clock / 1000) * 1000;
      clock += options.signDelayMs ?? 0;
      return Promise.resolve({ ...request, signature_timestamp: signedAt });
    },
    privatePostOrdersBatch: (orders: Array<Record<string, unknown>>) => {
      sent.push(...orders);
      const queued = orders.filter((o) => !options.refused?.includes(String(o['clientOrderId'])));
      return Promise.resolve({
        orders: queued.map((o) => ({ id: `id-${String(o['clientOrderId'])}`, ...o })),
        errors: options.errors ?? [],
      });
    },
    parseOrder: (order: Record<string, unknown>) =>
      ({ id: order['id'], clientOrderId: order['clientOrderId'], info: order }) as Order,
    cancelOrders: () =>
      Promise.resolve((options.results ?? []).map((info) => ({ id: (info as Order).id, info }))),
    handleErrors: (...args: unknown[]) => {
      const response = args[6] as { error?: string };
      if (response.error) {
        throw new ExchangeRefusal(`paradex ${String(args[5])}`);
      }
      return undefined;
    },
  };
  return { exchange: exchange as unknown as CcxtExchangeLike, sent };
}

const placement = (clientOrderId: string): BatchPlacement => ({
  unified: 'ETH/USD:USDC',
  args: { side: 'buy', amount: 0.1, price: 2000, params: { postOnly: true, clientOrderId } },
});

const missing = new Error('unknown fate');
const expiryAt = (sentAtMs: number): BatchExpiry => ({
  sentAtMs,
  expiresAtMs: sentAtMs + 5_000,
  // The window a single placement carries: its life and the second ccxt's timestamp may lag.
  params: { recv_window: 6_000 },
  missing: () => missing,
});

const errorOf = (answer: ElementAnswer<Order> | undefined): unknown =>
  answer && 'error' in answer ? answer.error : undefined;

describe("Paradex's batched placements through ccxt's building blocks", () => {
  it('ends every order’s receive window where the request’s life ends, however late it was signed', async () => {
    const sentAtMs = 1_700_000_000_400;
    const { exchange, sent } = paradexOf({ startMs: sentAtMs, signDelayMs: 700 });
    await PARADEX_BATCHES.createOrders(
      exchange,
      ['a', 'b', 'c'].map(placement),
      expiryAt(sentAtMs),
    );
    const endsAt = sent.map((o) => Number(o['signature_timestamp']) + Number(o['recv_window']));
    expect(endsAt).toEqual([sentAtMs + 6_000, sentAtMs + 6_000, sentAtMs + 6_000]);
  });

  it('answers each order by its client id, and gives the one order left out the one error', async () => {
    const { exchange } = paradexOf({
      startMs: 0,
      refused: ['b'],
      errors: [{ error: 'DUPLICATED_CLIENT_ID', message: 'duplicated client id' }],
    });
    const answers = await PARADEX_BATCHES.createOrders(
      exchange,
      ['a', 'b', 'c'].map(placement),
      expiryAt(0),
    );
    expect(answers.map((answer) => 'value' in answer && answer.value.id)).toEqual([
      'id-a',
      false,
      'id-c',
    ]);
    expect(errorOf(answers[1])).toBeInstanceOf(ExchangeRefusal);
    expect((errorOf(answers[1]) as Error).message).toContain('DUPLICATED_CLIENT_ID');
  });

  it('leaves the fate of orders left out unknown where the errors do not say whose is whose', async () => {
    const { exchange } = paradexOf({
      startMs: 0,
      refused: ['a', 'b'],
      errors: [
        { error: 'DUPLICATED_CLIENT_ID', message: 'duplicated client id' },
        { error: 'INVALID_PRICE_PRECISION', message: 'invalid price' },
      ],
    });
    const answers = await PARADEX_BATCHES.createOrders(
      exchange,
      ['a', 'b'].map(placement),
      expiryAt(0),
    );
    expect(answers.map(errorOf)).toEqual([missing, missing]);
  });
});

describe("Paradex's batched cancels", () => {
  it('answers each cancel as the single cancel answers: queued, closed, not found, or unknown', async () => {
    const { exchange } = paradexOf({
      startMs: 0,
      results: [
        { id: '1', status: 'QUEUED_FOR_CANCELLATION' },
        { id: '2', status: 'ALREADY_CLOSED' },
        { id: '3', status: 'NOT_FOUND' },
      ],
    });
    const entries = ['1', '2', '3', '4'].map((orderId) => ({ orderId, unified: 'ETH/USD:USDC' }));
    const answers = await PARADEX_BATCHES.cancelOrders(exchange, entries, expiryAt(0));
    expect(answers[0]).toEqual({ value: true });
    expect((errorOf(answers[1] as never) as Error).message).toContain('ORDER_IS_CLOSED');
    expect((errorOf(answers[2] as never) as Error).message).toContain('ORDER_ID_NOT_FOUND');
    expect(errorOf(answers[3] as never)).toBe(missing);
  });
});
