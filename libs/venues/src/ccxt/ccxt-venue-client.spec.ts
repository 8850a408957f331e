import type { Balances, Market, Order, OrderBook, Position, Trade } from 'ccxt';
import { OrderRejectedError, PostOnlyWouldCrossError } from '../errors';
import { EventLog } from '../conformance/conformance-tools';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { CcxtVenueClient } from './ccxt-venue-client';
import { encodeClientOrderId } from './client-order-ids';
import hyperliquidMarkets from './fixtures/hyperliquid-markets.json';
import paradexMarkets from './fixtures/paradex-markets.json';
import paradex from './fixtures/paradex-account.json';

/** A stream of recorded payloads, handed out one watch call at a time. */
class Feed<T> {
  private readonly queue: Array<T | Error> = [];
  private waiting?: { resolve: (value: T) => void; reject: (error: Error) => void };

  push(item: T | Error): void {
    if (this.waiting) {
      const { resolve, reject } = this.waiting;
      this.waiting = undefined;
      if (item instanceof Error) {
        reject(item);
      } else {
        resolve(item);
      }
      return;
    }
    this.queue.push(item);
  }

  next(): Promise<T> {
    const item = this.queue.shift();
    if (item instanceof Error) {
      return Promise.reject(item);
    }
    if (item !== undefined) {
      return Promise.resolve(item);
    }
    return new Promise<T>((resolve, reject) => (this.waiting = { resolve, reject }));
  }
}

class InvalidOrder extends Error {}
class NetworkError extends Error {}
/** ccxt files a venue's nonce or timestamp refusal (Aster's -1021) under NetworkError. */
class InvalidNonce extends NetworkError {}
class OrderNotFound extends Error {}

/** Replays recorded ccxt payloads; records the calls the client makes. Never touches a network. */
class FakeExchange implements CcxtExchangeLike {
  readonly precisionMode = 4;
  readonly calls: Array<[string, ...unknown[]]> = [];
  readonly orders = new Feed<Order[]>();
  readonly trades = new Feed<Trade[]>();
  readonly books = new Feed<OrderBook>();
  /** What ccxt keeps of the wallet once it asked (Hyperliquid's userAbstraction, before its first signed action). */
  readonly options: Record<string, unknown> = { enableUnifiedMargin: false };
  nextCreate: Order | Error = paradex.restingOrder as unknown as Order;
  fetched: Order = paradex.restingOrder as unknown as Order;
  cancelError?: Error;
  /** What the venue answers the credential probe (a cancel of order id 1 on hyperliquid). */
  probeError: Error = new OrderNotFound(
    'hyperliquid Order was never placed, already canceled, or filled.',
  );

  constructor(
    readonly id: string,
    private readonly markets: object,
    readonly has: Record<string, boolean | undefined>,
  ) {}

  async loadMarkets(): Promise<Record<string, Market>> {
    return this.markets as Record<string, Market>;
  }
  async createOrder(
    ...args: [string, 'limit', 'buy' | 'sell', number, number?, Record<string, unknown>?]
  ): Promise<Order> {
    this.calls.push(['createOrder', ...args]);
    if (this.nextCreate instanceof Error) {
      throw this.nextCreate;
    }
    return this.nextCreate;
  }
  async cancelOrder(id: string, symbol?: string): Promise<Order> {
    this.calls.push(['cancelOrder', id, symbol]);
    if (id === '1') {
      throw this.probeError;
    }
    if (this.cancelError) {
      throw this.cancelError;
    }
    return this.fetched;
  }
  async fetchOrder(id: string): Promise<Order> {
    this.calls.push(['fetchOrder', id]);
    return this.fetched;
  }
  async fetchOpenOrders(): Promise<Order[]> {
    return [paradex.restingOrder as unknown as Order];
  }
  /** What the venue answers fetchMyTrades. */
  myTrades: Trade[] = [paradex.trade as unknown as Trade];
  async fetchMyTrades(symbol?: string, since?: number): Promise<Trade[]> {
    this.calls.push(['fetchMyTrades', symbol, since]);
    return this.myTrades;
  }
  async fetchPositions(): Promise<Position[]> {
    return paradex.positions as unknown as Position[];
  }
  async fetchBalance(): Promise<Balances> {
    return paradex.balance as unknown as Balances;
  }
  watchOrderBook(): Promise<OrderBook> {
    return this.books.next();
  }
  watchOrders(): Promise<Order[]> {
    return this.orders.next();
  }
  watchMyTrades(): Promise<Trade[]> {
    return this.trades.next();
  }
  async close(): Promise<void> {}
}

const trade = (overrides: Partial<Trade>): Trade => ({
  ...(paradex.trade as unknown as Trade),
  ...overrides,
});
const order = (overrides: Partial<Order>): Order => ({
  ...(paradex.restingOrder as unknown as Order),
  ...overrides,
});

describe('CcxtVenueClient (recorded payloads, no network)', () => {
  let exchange: FakeExchange;
  let client: CcxtVenueClient;
  let log: EventLog;

  const start = async (id: string, markets: object, has: Record<string, boolean | undefined>) => {
    exchange = new FakeExchange(id, markets, has);
    client = new CcxtVenueClient({ venue: id, exchange });
    log = new EventLog(client);
    await client.connect();
    exchange.calls.length = 0;
  };
  afterEach(async () => {
    log.stop();
    await client.close();
  });

  it('proves the credentials with a signed request that changes nothing before it connects', async () => {
    exchange = new FakeExchange('hyperliquid', hyperliquidMarkets, { watchMyTrades: true });
    exchange.probeError = new InvalidOrder(
      'hyperliquid {"status":"err","response":"User or API Wallet 0xb8a6 does not exist."}',
    );
    client = new CcxtVenueClient({ venue: 'hyperliquid', exchange });
    log = new EventLog(client);
    // The probe is one request of the account's limit, for whoever meters it to pay.
    expect(client.requestsToConnect()).toBe(1);
    await expect(client.connect()).rejects.toMatchObject({
      name: 'VenueAuthError',
      detail: 'User or API Wallet 0xb8a6 does not exist.',
    });
    expect(exchange.calls).toEqual([['cancelOrder', '1', 'BTC/USDC:USDC']]);
    expect(client.requestsToConnect()).toBe(1);
    exchange.probeError = new OrderNotFound('hyperliquid Order was never placed');
    await client.connect();
    // Proven once: a reconnect sends no probe.
    expect(client.requestsToConnect()).toBe(0);
    expect(exchange.calls).toHaveLength(2);
  });

  it('lists markets under native and canonical symbols', async () => {
    await start('hyperliquid', hyperliquidMarkets, { watchMyTrades: true });
    const markets = await client.markets();
    expect(markets.map((m) => [m.entry.symbol, m.canonical])).toEqual([
      ['BTC', 'BTC'],
      ['kPEPE', '1000PEPE'],
    ]);
  });

  it('places post-only and IOC orders through ccxt with the venue form of the client order id', async () => {
    await start('hyperliquid', hyperliquidMarkets, { watchMyTrades: true });
    exchange.nextCreate = order({
      id: '9001',
      clientOrderId: String(encodeClientOrderId('hyperliquid', 'q-1')),
      symbol: 'KPEPE/USDC:USDC',
      price: 0.0105,
      amount: 1000,
      filled: 0,
      status: 'open',
    });
    const ack = await client.placePostOnly({
      symbol: 'kPEPE',
      side: 'buy',
      price: '0.0105',
      size: '1000',
      clientOrderId: 'q-1',
    });
    expect(exchange.calls[0]).toEqual([
      'createOrder',
      'KPEPE/USDC:USDC',
      'limit',
      'buy',
      1000,
      0.0105,
      {
        postOnly: true,
        clientOrderId: encodeClientOrderId('hyperliquid', 'q-1'),
      },
    ]);
    expect(ack.order).toMatchObject({
      orderId: '9001',
      clientOrderId: 'q-1',
      symbol: 'kPEPE',
      market: '1000PEPE',
      status: 'open',
    });
    await client.placeIoc({
      symbol: 'BTC',
      side: 'sell',
      price: '97000',
      size: '0.01',
      clientOrderId: 'h-1',
    });
    expect(exchange.calls[1][6]).toMatchObject({ timeInForce: 'IOC' });
    expect(exchange.calls[1][6]).not.toHaveProperty('reduceOnly');
    // The unwind of a residual (decisions 2): ccxt's unified reduceOnly param.
    await client.placeIoc({
      symbol: 'BTC',
      side: 'sell',
      price: '97000',
      size: '0.01',
      clientOrderId: 'u-1',
      reduceOnly: true,
    });
    expect(exchange.calls[2][6]).toMatchObject({ timeInForce: 'IOC', reduceOnly: true });
  });

  it('turns a venue post-only refusal into PostOnlyWouldCrossError', async () => {
    await start('hyperliquid', hyperliquidMarkets, { watchMyTrades: true });
    exchange.nextCreate = new InvalidOrder(
      'Post only order would have immediately matched, bbo was 97022@97023',
    );
    Object.defineProperty(InvalidOrder, 'name', { value: 'InvalidOrder' });
    await expect(
      client.placePostOnly({
        symbol: 'BTC',
        side: 'buy',
        price: '97023',
        size: '0.01',
        clientOrderId: 'x',
      }),
    ).rejects.toBeInstanceOf(PostOnlyWouldCrossError);
  });

  it('a placement refused for its timestamp (InvalidNonce) is a refusal, not a lost answer', async () => {
    await start('paradex', paradexMarkets, { watchMyTrades: true });
    exchange.nextCreate = new InvalidNonce(
      '{"code":-1021,"msg":"Timestamp for this request is outside of the recvWindow."}',
    );
    const placing = client.placeIoc({
      symbol: 'ETH-USD-PERP',
      side: 'sell',
      price: '3000',
      size: '0.01',
      clientOrderId: 'late-1',
    });
    await expect(placing).rejects.toBeInstanceOf(OrderRejectedError);
    await expect(placing).rejects.toMatchObject({ reason: 'stale_request' });
  });

  it('streams own fills once each, with the order completion worked out', async () => {
    await start('paradex', paradexMarkets, { watchMyTrades: true });
    expect(client.unpaidFillReads).toBe(false);
    exchange.nextCreate = order({ id: 'o-1', amount: 0.5, filled: 0, status: 'open' });
    await client.placePostOnly({
      symbol: 'ETH-USD-PERP',
      side: 'buy',
      price: '3401.27',
      size: '0.5',
      clientOrderId: 'maker-1',
    });
    const first = trade({ id: 't-1', order: 'o-1', amount: 0.2 });
    exchange.trades.push([first]);
    exchange.trades.push([first, trade({ id: 't-2', order: 'o-1', amount: 0.3 })]);
    await log.waitFor('fill', (fill) => fill.fillId === 't-2');
    expect(
      log.events.fill.map((fill) => [
        fill.fillId,
        fill.size,
        fill.fullyFilled,
        fill.clientOrderId,
        fill.symbol,
        fill.market,
      ]),
    ).toEqual([
      ['t-1', '0.2', false, 'maker-1', 'ETH-USD-PERP', 'ETH'],
      ['t-2', '0.3', true, 'maker-1', 'ETH-USD-PERP', 'ETH'],
    ]);
  });

  it("reads the venue's own fills of an order whose filled size grew, on a venue without a trade stream", async () => {
    await start('paradex', paradexMarkets, { watchMyTrades: false });
    // It says so, for the caller metering the account to keep rate back for those reads.
    expect(client.unpaidFillReads).toBe(true);
    exchange.nextCreate = order({
      id: 'o-2',
      amount: 0.5,
      filled: 0,
      average: undefined,
      status: 'open',
    });
    await client.placePostOnly({
      symbol: 'ETH-USD-PERP',
      side: 'buy',
      price: '3401.27',
      size: '0.5',
      clientOrderId: 'maker-2',
    });
    // The reads sent when each unpaid read is announced: the read leaves first.
    const readsAtAnnounce: number[] = [];
    client.on('unpaid', () =>
      readsAtAnnounce.push(exchange.calls.filter(([method]) => method === 'fetchMyTrades').length),
    );
    const fill = (id: string, amount: number, price: number): Trade =>
      ({
        ...(paradex.trade as unknown as Trade),
        id,
        order: 'o-2',
        amount,
        price,
        side: 'buy',
        takerOrMaker: 'maker',
      }) as Trade;
    exchange.myTrades = [fill('t-1', 0.2, 3401.27)];
    exchange.orders.push([order({ id: 'o-2', filled: 0.2, average: 3401.27, status: 'open' })]);
    await log.waitFor('order', (o) => o.status === 'partially_filled');
    exchange.myTrades = [fill('t-1', 0.2, 3401.27), fill('t-2', 0.3, 3401.07)];
    exchange.orders.push([order({ id: 'o-2', filled: 0.5, average: 3401.15, status: 'closed' })]);
    await log.waitFor('order', (o) => o.status === 'filled');
    // The venue's fill ids, each once: the same fills fillsSince reads back.
    expect(log.events.fill.map((f) => [f.fillId, f.size, f.price, f.fullyFilled])).toEqual([
      ['t-1', '0.2', '3401.27', false],
      ['t-2', '0.3', '3401.07', true],
    ]);
    expect(log.events.order.map((o) => [o.status, o.clientOrderId])).toEqual([
      ['partially_filled', 'maker-2'],
      ['filled', 'maker-2'],
    ]);
    // Each read went out at once, unpaid: announced for the order's owner to pay, one per read.
    const reads = exchange.calls.filter(([method]) => method === 'fetchMyTrades');
    expect(reads).toHaveLength(2);
    expect(log.events.unpaid).toEqual([
      { clientOrderId: 'maker-2', requests: 1, tokens: 1 },
      { clientOrderId: 'maker-2', requests: 1, tokens: 1 },
    ]);
    expect(readsAtAnnounce).toEqual([1, 2]);
  });

  it('signals a dropped stream, then its return with where to recover fills from', async () => {
    await start('paradex', paradexMarkets, { watchMyTrades: true });
    exchange.orders.push(new Error('connection closed'));
    const down = await log.waitFor('connection', (event) => event.state === 'disconnected');
    exchange.orders.push([order({ id: 'o-3' })]);
    const back = await log.waitFor('connection', (event) => event.state === 'reconnected', 3_000);
    expect(back).toMatchObject({ state: 'reconnected', disconnectedAtMs: down.atMs });
    if (back.state === 'reconnected') {
      expect(back.recoverFromMs).toBeLessThan(down.atMs);
    }
    const recovered = await client.fillsSince(1732186520000);
    expect(exchange.calls).toContainEqual(['fetchMyTrades', undefined, 1732186520000]);
    expect(recovered.map((fill) => fill.fillId)).toEqual(['1732186520001000033']);
  });

  it('streams books with decimal levels', async () => {
    await start('paradex', paradexMarkets, { watchMyTrades: true });
    exchange.books.push(paradex.orderBook as unknown as OrderBook);
    await client.subscribeBook('ETH-USD-PERP');
    expect(log.events.book[0]).toMatchObject({
      symbol: 'ETH-USD-PERP',
      market: 'ETH',
      bestBid: '3401.27',
      bestAsk: '3401.88',
      seq: 8812345,
    });
  });

  it('tells a cancel of an order that already filled from one of an unknown order', async () => {
    await start('paradex', paradexMarkets, { watchMyTrades: true });
    class OrderNotFound extends InvalidOrder {}
    exchange.cancelError = new OrderNotFound('order not found');
    exchange.fetched = order({ id: 'o-4', status: 'closed', filled: 0.5 });
    const result = await client.cancel({ orderId: 'o-4', symbol: 'ETH-USD-PERP' });
    expect(result.outcome).toBe('not_open');
    expect(result.order?.status).toBe('filled');
  });

  it('maps positions and balances', async () => {
    await start('paradex', paradexMarkets, { watchMyTrades: true });
    expect(await client.positions()).toEqual([
      expect.objectContaining({ symbol: 'ETH-USD-PERP', market: 'ETH', side: 'long', size: '0.2' }),
    ]);
    expect(await client.balances()).toEqual([
      { asset: 'USDC', total: '10250.123456', available: '9570.1', marginUsed: '680.023456' },
    ]);
  });
});
