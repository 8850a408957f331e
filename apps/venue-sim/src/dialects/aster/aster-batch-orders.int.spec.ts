import Big from 'big.js';
import type { Order } from 'ccxt';
import {
  ETH,
  asterTrader,
  loggedRequests,
  startAsterWorld,
  thrown,
  type AsterCcxt,
  type AsterWorld,
} from './aster-test-kit';

/** ccxt's implicit endpoints the batch specs call directly (over-size batches ccxt refuses itself). */
type BatchEndpoints = {
  fapiPrivatePostV3BatchOrders(params: Record<string, unknown>): Promise<unknown>;
  fapiPrivateDeleteV3BatchOrders(params: Record<string, unknown>): Promise<unknown>;
};

// ccxt 4.5.84's createOrders / cancelOrders against the dialect's
// POST / DELETE /fapi/v3/batchOrders ("Place Multiple Orders", "Cancel
// Multiple Orders" of Aster's futures v3 document).
describe('aster dialect: batch orders through ccxt', () => {
  let world: AsterWorld;
  let exchange: AsterCcxt;
  let address: string;

  beforeAll(async () => {
    world = await startAsterWorld();
    ({ exchange, address } = await asterTrader(world, 'batcher'));
    await exchange.loadMarkets();
  });

  afterAll(async () => {
    await exchange.close();
    await world.sim.stop();
  });

  const touch = async (): Promise<{ bid: Big; ask: Big }> => {
    const book = await exchange.fetchOrderBook(ETH, 5);
    return { bid: new Big(book.bids[0][0]), ask: new Big(book.asks[0][0]) };
  };

  const postOnlyBuy = (price: Big, clientOrderId: string) => ({
    symbol: ETH,
    type: 'limit',
    side: 'buy',
    amount: 0.1,
    price: price.toNumber(),
    params: { postOnly: true, clientOrderId },
  });

  /** The window weight of a pool's only key (A1: this loopback IP; A2: the account). */
  const windowWeight = async (pool: 'A1' | 'A2'): Promise<number> => {
    const report = await world.control.dialectRateLimits('aster');
    const keys = report.pools.find((p) => p.id === pool)?.keys ?? [];
    return keys.reduce((sum, key) => sum + key.window_weight, 0);
  };

  const batchRequestsSince = async (sinceMs: number) =>
    (await loggedRequests(world, address)).filter((r) => r.atMs >= sinceMs);

  const createOrders = (orders: ReturnType<typeof postOnlyBuy>[]): Promise<Order[]> =>
    (exchange as unknown as { createOrders(o: unknown[]): Promise<Order[]> }).createOrders(orders);

  it('places three orders in one request weighing 5 (A1) and 3 new orders (A2)', async () => {
    const { bid } = await touch();
    await world.control.resetDialectRateLimits('aster');
    const sinceMs = Date.now();
    const orders = await createOrders([
      postOnlyBuy(bid.minus(3), 'batch-a1'),
      postOnlyBuy(bid.minus(4), 'batch-a2'),
      postOnlyBuy(bid.minus(5), 'batch-a3'),
    ]);
    expect(orders.map((o) => [o.clientOrderId, o.status])).toEqual([
      ['batch-a1', 'open'],
      ['batch-a2', 'open'],
      ['batch-a3', 'open'],
    ]);
    const sent = await batchRequestsSince(sinceMs);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /fapi/v3/batchOrders']);
    expect(await windowWeight('A1')).toBe(5);
    expect(await windowWeight('A2')).toBe(3);
    const open = (await exchange.fetchOpenOrders(ETH)).map((o: Order) => o.clientOrderId);
    expect(open).toEqual(expect.arrayContaining(['batch-a1', 'batch-a2', 'batch-a3']));
  });

  it('answers a partly refused batch per element, in request order: a crossing GTX is -5022, the others rest', async () => {
    const { bid, ask } = await touch();
    const orders = await createOrders([
      postOnlyBuy(bid.minus(6), 'batch-b1'),
      postOnlyBuy(ask, 'batch-b2'),
      postOnlyBuy(bid.minus(7), 'batch-b3'),
    ]);
    expect(orders).toHaveLength(3);
    expect(orders[0]).toMatchObject({ clientOrderId: 'batch-b1', status: 'open' });
    expect(orders[1].id).toBeUndefined();
    expect(orders[1].info).toEqual({
      code: -5022,
      msg: expect.stringContaining('the Post Only order will be rejected'),
    });
    expect(orders[2]).toMatchObject({ clientOrderId: 'batch-b3', status: 'open' });
    const crossed = await thrown(exchange.fetchOrder('', ETH, { clientOrderId: 'batch-b2' }));
    expect(crossed).toMatchObject({ name: 'OrderNotFound' });
  });

  it('refuses one element by its own parameters (-4015) and places the rest', async () => {
    const { bid } = await touch();
    const orders = await createOrders([
      postOnlyBuy(bid.minus(8), 'bad id with spaces'),
      postOnlyBuy(bid.minus(8), 'batch-c2'),
    ]);
    expect(orders[0].info).toEqual({ code: -4015, msg: 'Client order id is not valid.' });
    expect(orders[1]).toMatchObject({ clientOrderId: 'batch-c2', status: 'open' });
  });

  it('cancels several orders in one request weighing 1; an unknown id is -2011 in its place', async () => {
    const { bid } = await touch();
    const placed = await createOrders([
      postOnlyBuy(bid.minus(9), 'batch-d1'),
      postOnlyBuy(bid.minus(10), 'batch-d2'),
    ]);
    await world.control.resetDialectRateLimits('aster');
    const sinceMs = Date.now();
    const ids = [String(placed[0].id), '1', String(placed[1].id)];
    const canceled = (await (
      exchange as unknown as { cancelOrders(ids: string[], symbol: string): Promise<Order[]> }
    ).cancelOrders(ids, ETH)) as Order[];
    expect(canceled.map((o) => o.info)).toEqual([
      expect.objectContaining({ clientOrderId: 'batch-d1', status: 'CANCELED' }),
      { code: -2011, msg: 'Unknown order sent.' },
      expect.objectContaining({ clientOrderId: 'batch-d2', status: 'CANCELED' }),
    ]);
    expect(canceled[0].status).toBe('canceled');
    const sent = await batchRequestsSince(sinceMs);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /fapi/v3/batchOrders']);
    expect(await windowWeight('A1')).toBe(1);
    expect(await windowWeight('A2')).toBe(0);
  });

  it('refuses a batch of six orders whole (-4082) and eleven cancels (-1130), changing nothing', async () => {
    const { bid } = await touch();
    const endpoints = exchange as unknown as BatchEndpoints;
    const six = Array.from({ length: 6 }, (_, i) => ({
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTX',
      quantity: '0.1',
      price: bid.minus(11).toFixed(2),
      newClientOrderId: `batch-six-${i}`,
    }));
    const placing = await thrown(endpoints.fapiPrivatePostV3BatchOrders({ batchOrders: six }));
    expect(placing.message).toContain(
      '{"code":-4082,"msg":"Invalid number of batch place orders: 6"}',
    );
    const five = await endpoints.fapiPrivatePostV3BatchOrders({ batchOrders: six.slice(0, 5) });
    expect(five).toHaveLength(5);
    const eleven = Array.from({ length: 11 }, (_, i) => `batch-six-${i % 5}`);
    const canceling = await thrown(
      endpoints.fapiPrivateDeleteV3BatchOrders({
        symbol: 'ETHUSDT',
        origClientOrderIdList: eleven,
      }),
    );
    expect(canceling.message).toContain('"code":-1130');
    const open = (await exchange.fetchOpenOrders(ETH)).map((o: Order) => o.clientOrderId);
    expect(open.filter((id) => id?.startsWith('batch-six-'))).toHaveLength(5);
  });

  it('counts a batch once on A2 under batch_order_count=per_request, and refuses past A2 with -1015', async () => {
    const { bid } = await touch();
    await world.control.resetDialectRateLimits('aster');
    await world.control.setDialectProfile('aster', { batch_order_count: 'per_request' });
    try {
      await createOrders([
        postOnlyBuy(bid.minus(12), 'batch-e1'),
        postOnlyBuy(bid.minus(12), 'batch-e2'),
      ]);
      expect(await windowWeight('A2')).toBe(1);
      await world.control.setDialectProfile('aster', { batch_order_count: 'per_order' });
      await world.control.setDialectRateLimits('aster', { pools: { A2: { capacity: 3 } } });
      const over = await thrown(
        createOrders([
          postOnlyBuy(bid.minus(13), 'batch-e3'),
          postOnlyBuy(bid.minus(13), 'batch-e4'),
          postOnlyBuy(bid.minus(13), 'batch-e5'),
        ]),
      );
      expect(over).toMatchObject({ name: 'RateLimitExceeded' });
      expect(over.message).toContain('"code":-1015');
      const open = (await exchange.fetchOpenOrders(ETH)).map((o: Order) => o.clientOrderId);
      expect(open).not.toContain('batch-e3');
    } finally {
      await world.control.setDialectProfile('aster', { batch_order_count: 'per_order' });
      await world.control.setDialectRateLimits('aster', {});
    }
  });
});
