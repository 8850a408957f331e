import Big from 'big.js';
import type { MarketInterface, Order } from 'ccxt';
import {
  ETH,
  asterTrader,
  loggedRequests,
  startAsterWorld,
  thrown,
  type AsterCcxt,
  type AsterWorld,
} from './aster-test-kit';

// The real ccxt 4.5.84 pro class, built as the live client builds it, talks
// Aster's own protocol to the simulator's aster dialect over loopback.
describe('aster dialect: REST through ccxt', () => {
  let world: AsterWorld;
  let exchange: AsterCcxt;
  let address: string;

  beforeAll(async () => {
    world = await startAsterWorld();
    ({ exchange, address } = await asterTrader(world, 'maker'));
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

  it('loads the markets with the engine profile filters', async () => {
    const markets = await exchange.loadMarkets();
    const eth = markets[ETH] as MarketInterface;
    expect(eth).toMatchObject({ id: 'ETHUSDT', swap: true, linear: true, settle: 'USDT' });
    expect(eth.precision).toMatchObject({ price: 0.01, amount: 0.001 });
    expect(eth.limits.amount?.min).toBe(0.001);
    expect(eth.limits.cost?.min).toBe(5);
    expect(Object.keys(markets).sort()).toEqual([
      '1000PEPE/USDT:USDT',
      'BTC/USDT:USDT',
      'ETH/USDT:USDT',
      'HYPE/USD1:USD1',
      'HYPE/USDT:USDT',
      'SOL/USDT:USDT',
    ]);
    const funding = await exchange.fetchFundingRates([ETH]);
    expect(typeof funding[ETH].fundingRate).toBe('number');
  });

  it('rests a post-only order (postOnly → GTX) and finds it by id, by client id and among open orders', async () => {
    const { bid } = await touch();
    const price = bid.minus(5).toNumber();
    const order = await exchange.createOrder(ETH, 'limit', 'buy', 0.5, price, {
      postOnly: true,
      clientOrderId: 'rest-po-1',
    });
    expect(order).toMatchObject({ status: 'open', clientOrderId: 'rest-po-1', price, amount: 0.5 });
    expect(order.info).toMatchObject({ timeInForce: 'GTX', status: 'NEW', type: 'LIMIT' });
    const byId = await exchange.fetchOrder(String(order.id), ETH);
    const byClientId = await exchange.fetchOrder('', ETH, { clientOrderId: 'rest-po-1' });
    expect(byId.id).toBe(order.id);
    expect(byClientId.id).toBe(order.id);
    const open = await exchange.fetchOpenOrders(ETH);
    expect(open.map((o: Order) => o.id)).toContain(order.id);
  });

  it('takes timeInForce GTX as post-only, and refuses a crossing one with -5022, recording nothing', async () => {
    const { ask } = await touch();
    const crossing = await thrown(
      exchange.createOrder(ETH, 'limit', 'buy', 0.1, ask.toNumber(), {
        timeInForce: 'GTX',
        clientOrderId: 'rest-cross-1',
      }),
    );
    expect(crossing.message).toContain('"code":-5022');
    expect(
      await thrown(exchange.fetchOrder('', ETH, { clientOrderId: 'rest-cross-1' })),
    ).toMatchObject({ name: 'OrderNotFound' });
  });

  it("refuses ccxt's unified timeInForce 'PO' as Aster does (-1115): ccxt 4.5.84 sends it verbatim", async () => {
    const { bid } = await touch();
    const refused = await thrown(
      exchange.createOrder(ETH, 'limit', 'buy', 0.1, bid.minus(5).toNumber(), {
        postOnly: true,
        timeInForce: 'PO',
      }),
    );
    expect(refused).toMatchObject({ name: 'InvalidOrder' });
    expect(refused.message).toContain('Invalid timeInForce.');
  });

  it('fills an IOC partly and expires the rest (answered so under newOrderRespType=RESULT)', async () => {
    const book = await exchange.fetchOrderBook(ETH, 5);
    const [askPrice, askSize] = book.asks[0];
    const size = new Big(askSize).plus(1).toNumber();
    const order = await exchange.createOrder(ETH, 'limit', 'buy', size, askPrice, {
      timeInForce: 'IOC',
      newOrderRespType: 'RESULT',
    });
    expect(order.info).toMatchObject({ status: 'EXPIRED', timeInForce: 'IOC' });
    expect(order.status).toBe('canceled');
    expect(order.filled).toBe(askSize);
    expect(order.average).toBe(askPrice);
  });

  it('cancels an order; a second cancel is an unknown order (-2011)', async () => {
    const { bid } = await touch();
    const order = await exchange.createOrder(ETH, 'limit', 'buy', 0.2, bid.minus(6).toNumber(), {
      postOnly: true,
    });
    const canceled = await exchange.cancelOrder(String(order.id), ETH);
    expect(canceled).toMatchObject({ id: order.id, status: 'canceled' });
    const again = await thrown(exchange.cancelOrder(String(order.id), ETH));
    expect(again).toMatchObject({ name: 'OrderNotFound' });
    expect(again.message).toContain('Unknown order sent.');
    expect((await exchange.fetchOpenOrders(ETH)).map((o: Order) => o.id)).not.toContain(order.id);
  });

  it('lists the fill of a resting order another trader took, with positions and balance', async () => {
    const { bid, ask } = await touch();
    const price = ask.minus(0.05);
    expect(price.gt(bid)).toBe(true);
    const sell = await exchange.createOrder(ETH, 'limit', 'sell', 2, price.toNumber(), {
      postOnly: true,
      clientOrderId: 'rest-maker-sell',
    });
    await world.control.trade('aster', 'ETHUSDT', 'buy', '1.5', price.toFixed());
    const trades = await exchange.fetchMyTrades(ETH, Date.now() - 60_000);
    const fill = trades.find((trade) => trade.order === sell.id);
    expect(fill).toMatchObject({
      side: 'sell',
      takerOrMaker: 'maker',
      price: price.toNumber(),
      amount: 1.5,
    });
    expect(fill?.fee?.currency).toBe('USDT');
    const order = await exchange.fetchOrder(String(sell.id), ETH);
    expect(order).toMatchObject({ status: 'open', filled: 1.5, remaining: 0.5 });
    const positions = await exchange.fetchPositions([ETH]);
    expect(positions).toHaveLength(1);
    // The IOC bought the top ask level; this maker sale took 1.5 off it.
    expect(positions[0]).toMatchObject({ symbol: ETH, marginMode: 'cross', hedged: false });
    const byAccount = await exchange.fetchPositions([ETH], { method: 'account' });
    expect(byAccount[0]).toMatchObject({ symbol: ETH, contracts: positions[0].contracts });
    const balance = await exchange.fetchBalance();
    expect(balance['USDT'].total).toBeLessThan(100_000);
    expect(balance['USDT'].free).toBeGreaterThan(0);
  });

  it('refuses fetchMyTrades without a symbol: Aster requires one (-1102)', async () => {
    expect(await thrown(exchange.fetchMyTrades(undefined, Date.now() - 60_000))).toMatchObject({
      name: 'ArgumentsRequired',
    });
  });

  it('refuses a wallet that never deposited (-2015) while serving it public data', async () => {
    const { exchange: stranger } = await asterTrader(world, 'stranger', false);
    try {
      await stranger.loadMarkets();
      const refused = await thrown(stranger.fetchBalance());
      expect(refused.name).toBe('AuthenticationError');
      expect(refused.message).toContain('"code":-2015');
    } finally {
      await stranger.close();
    }
  });

  it('refuses an order whose recvWindow passed while the venue held it (-1021), recording nothing', async () => {
    const { bid } = await touch();
    await world.control.delayNext('aster', 1, 400);
    const late = await thrown(
      exchange.createOrder(ETH, 'limit', 'buy', 0.1, bid.minus(7).toNumber(), {
        postOnly: true,
        recvWindow: 200,
        clientOrderId: 'rest-late-1',
      }),
    );
    expect(late).toMatchObject({ name: 'InvalidNonce' });
    expect(
      await thrown(exchange.fetchOrder('', ETH, { clientOrderId: 'rest-late-1' })),
    ).toMatchObject({ name: 'OrderNotFound' });
  });

  it('runs orders through the shared faults in the paper vocabulary: a post-only lose-next rule takes a GTX order', async () => {
    const { bid } = await touch();
    await world.control.loseNext('aster', { orderType: 'post_only', at: 'before', then: 'drop' });
    const lost = await thrown(
      exchange.createOrder(ETH, 'limit', 'buy', 0.1, bid.minus(9).toNumber(), {
        postOnly: true,
        clientOrderId: 'rest-lost-1',
      }),
    );
    expect(lost.name).toBe('NetworkError');
    expect(
      await thrown(exchange.fetchOrder('', ETH, { clientOrderId: 'rest-lost-1' })),
    ).toMatchObject({ name: 'OrderNotFound' });
    await world.control.rejectNext('aster', 1);
    const rejected = await thrown(
      exchange.createOrder(ETH, 'limit', 'buy', 0.1, bid.minus(9).toNumber(), { postOnly: true }),
    );
    expect(rejected).toMatchObject({ name: 'InvalidOrder' });
    expect(rejected.message).toContain('"code":-2010');
  });

  it('answers 429 -1003 past the IP weight (A1), 429 -1015 past the account orders (A2)', async () => {
    await world.control.resetDialectRateLimits('aster');
    // fetchBalance is one GET /fapi/v3/balance, weight 5: two fit in 12.
    await world.control.setDialectRateLimits('aster', { pools: { A1: { capacity: 12 } } });
    try {
      const results = await Promise.allSettled([1, 2, 3, 4].map(() => exchange.fetchBalance()));
      const refused = results.filter((result) => result.status === 'rejected');
      expect(refused).toHaveLength(2);
      const reason = (refused[0] as PromiseRejectedResult).reason as Error;
      expect(reason.constructor.name).toBe('RateLimitExceeded');
      expect(reason.message).toContain(
        '{"code":-1003,"msg":"Too many requests; current limit is 12 requests per minute.',
      );
      await world.control.setDialectRateLimits('aster', { pools: { A2: { capacity: 1 } } });
      const { bid } = await touch();
      const order = () =>
        exchange.createOrder(ETH, 'limit', 'buy', 0.1, bid.minus(9).toNumber(), { postOnly: true });
      await order();
      // An order's answer carries the account's orders in the window (and every answer the IP's weight).
      const headers = Object.fromEntries(
        Object.entries(
          (exchange as unknown as { last_response_headers: Record<string, string> })
            .last_response_headers,
        ).map(([name, value]) => [name.toLowerCase(), value]),
      );
      expect(headers).toMatchObject({
        'x-mbx-order-count-1m': '1',
        'x-mbx-used-weight-1m': expect.stringMatching(/^\d+$/),
      });
      const over = await thrown(order());
      expect(over).toMatchObject({ name: 'RateLimitExceeded' });
      expect(over.message).toContain(
        '{"code":-1015,"msg":"Too many new orders; current limit is 1 orders per MINUTE."}',
      );
    } finally {
      await world.control.setDialectRateLimits('aster', {});
    }
  });

  it('logs every private request: no order carried builder or feeRate, no builder approval was sent', async () => {
    const requests = await loggedRequests(world, address);
    const orders = requests.filter((r) => r.path === '/fapi/v3/order' && r.method === 'POST');
    expect(orders.length).toBeGreaterThan(3);
    for (const order of orders) {
      expect(order.params).not.toHaveProperty('builder');
      expect(order.params).not.toHaveProperty('feeRate');
    }
    expect(requests.some((r) => /builder/i.test(r.path))).toBe(false);
  });

  it('would show ccxt defaults: a builder lookup and approval at load, builder and feeRate on orders', async () => {
    const { exchange: defaults, address: wallet } = await asterTrader(world, 'defaults');
    try {
      defaults.options['builderFee'] = true;
      // A load of its own (the process shares one otherwise), where ccxt signs in.
      await defaults.loadMarkets(true);
      const approvals = (await loggedRequests(world, wallet)).map((r) => `${r.method} ${r.path}`);
      expect(approvals).toEqual(
        expect.arrayContaining(['GET /fapi/v3/builder', 'POST /fapi/v3/approveBuilder']),
      );
      defaults.options['builderFee'] = true;
      defaults.options['approvedBuilderFee'] = true;
      const { bid } = await touch();
      await defaults.createOrder(ETH, 'limit', 'buy', 0.1, bid.minus(8).toNumber(), {
        postOnly: true,
      });
      const placed = (await loggedRequests(world, wallet)).filter(
        (r) => r.path === '/fapi/v3/order',
      );
      expect(placed[0].params).toMatchObject({ builder: expect.any(String), feeRate: '0.001' });
    } finally {
      await defaults.close();
    }
  });
});

// What the worker unwinds a trade's remainder with: ccxt's unified reduceOnly
// param on an IOC, sent to Aster as `reduceOnly=true` (New Order).
describe('aster dialect: reduce-only IOCs through ccxt', () => {
  let world: AsterWorld;
  let exchange: AsterCcxt;
  let address: string;

  beforeAll(async () => {
    world = await startAsterWorld();
    ({ exchange, address } = await asterTrader(world, 'reduce-only'));
    await exchange.loadMarkets();
  });

  afterAll(async () => {
    await exchange.close();
    await world.sim.stop();
  });

  /** The wallet's ETH position from the venue's own fills. */
  const position = async (): Promise<string> =>
    (await world.control.accountFills('aster', address)).fills
      .filter((fill) => fill['symbol'] === 'ETHUSDT')
      .reduce(
        (net, fill) =>
          fill['side'] === 'buy'
            ? net.plus(fill['size'] as string)
            : net.minus(fill['size'] as string),
        new Big(0),
      )
      .toFixed();

  const top = async (): Promise<{ bid: number; ask: number }> => {
    const book = await exchange.fetchOrderBook(ETH, 5);
    return { bid: book.bids[0][0], ask: book.asks[0][0] };
  };

  it('takes it down to the position and expires the rest; with nothing to reduce, -2022', async () => {
    const { bid, ask } = await top();
    await exchange.createOrder(ETH, 'limit', 'buy', 0.5, ask, { timeInForce: 'IOC' });
    const unwind = await exchange.createOrder(ETH, 'limit', 'sell', 0.8, bid, {
      timeInForce: 'IOC',
      reduceOnly: true,
      clientOrderId: 'unwind-1',
      newOrderRespType: 'RESULT',
    });
    const sent = (await loggedRequests(world, address)).filter(
      (request) =>
        request.path === '/fapi/v3/order' && request.params['newClientOrderId'] === 'unwind-1',
    );
    expect(sent[0].params).toMatchObject({
      reduceOnly: 'true',
      timeInForce: 'IOC',
      quantity: '0.8',
    });
    expect(unwind.info).toMatchObject({
      status: 'EXPIRED',
      executedQty: '0.5',
      reduceOnly: true,
    });
    expect(unwind.reduceOnly).toBe(true);
    expect(await position()).toBe('0');

    const flat = await thrown(
      exchange.createOrder(ETH, 'limit', 'sell', 0.5, bid, {
        timeInForce: 'IOC',
        reduceOnly: true,
      }),
    );
    expect(flat.message).toContain('"code":-2022');
    expect(flat.message).toContain('ReduceOnly Order is rejected.');
    expect(await position()).toBe('0');
  });

  it('spares it the notional minimum (-4164 "unless you choose reduce only"), not a plain order', async () => {
    const { bid, ask } = await top();
    await exchange.createOrder(ETH, 'limit', 'buy', 0.01, ask, { timeInForce: 'IOC' });
    // 0.001 ETH is about 3.4 USDT, under the 5 USDT minimum.
    const plain = await thrown(
      exchange.createOrder(ETH, 'limit', 'sell', 0.001, bid, { timeInForce: 'IOC' }),
    );
    expect(plain.message).toContain('"code":-4164');
    await exchange.createOrder(ETH, 'limit', 'sell', 0.001, bid, {
      timeInForce: 'IOC',
      reduceOnly: true,
    });
    expect(await position()).toBe('0.009');
  });

  it('refuses a resting reduce-only order (-1020: the engine reduces with an IOC only) and a bad flag (-1130)', async () => {
    const { bid } = await top();
    const resting = await thrown(
      exchange.createOrder(ETH, 'limit', 'sell', 0.005, bid + 5, {
        postOnly: true,
        reduceOnly: true,
      }),
    );
    expect(resting.message).toContain('"code":-1020');
    const garbled = await thrown(
      exchange.createOrder(ETH, 'limit', 'sell', 0.005, bid, {
        timeInForce: 'IOC',
        reduceOnly: 'yes',
      }),
    );
    expect(garbled.message).toContain("Data sent for parameter 'reduceOnly' is not valid.");
  });
});
