import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import WebSocket from 'ws';
import { createCcxtExchange } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';

// The readings of what Paradex's documents leave open about an order's fate
// (paradex-readings.ts), each under each value, over the venue's own REST
// and JSON-RPC socket: what the read by id finds (`order_id_lookup`), how
// long an order stays NEW (`order_queue`, `queue_hold_ms`), how current the
// order history is (`history_lag`, `history_lag_ms`). Orders are signed and
// placed by ccxt 4.5.84; everything else is read over the wire.

const SYMBOL = 'ETH/USD:USDC';
const MARKET = 'ETH-USD-PERP';
const SIZE = 0.1;

/** The times the held and lagging cases play (short: the suite waits them out). */
const HOLD_MS = 800;
const LAG_MS = 500;

interface ParadexCcxt {
  onboarding(): Promise<unknown>;
  authenticateRest(): Promise<string>;
  createOrder(
    symbol: string,
    type: string,
    side: string,
    amount: number,
    price: number,
    params?: Record<string, unknown>,
  ): Promise<{ id?: string; info: Record<string, unknown> }>;
  fetchOrderBook(symbol: string): Promise<{ bids: number[][]; asks: number[][] }>;
  cancelOrder(id: string, symbol?: string): Promise<unknown>;
  close(): Promise<void>;
}

type ParadexOrder = Record<string, unknown> & { id: string; status: string; client_id: string };

let sim: RunningVenueSim;
let control: SimControl;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 17, tickMs: 0 });
  control = new SimControl(sim.url);
  await control.setDialectTiming('paradex', { queue_hold_ms: HOLD_MS, history_lag_ms: LAG_MS });
});

afterAll(async () => {
  await sim.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A trader on the venue: ccxt to sign and place, its bearer token for the wire. */
class Trader {
  private constructor(
    readonly exchange: ParadexCcxt,
    private readonly token: string,
  ) {}

  static async open(label: string): Promise<Trader> {
    const privateKey = keccak256(toHex(`paradex-readings-spec:${label}`));
    const wallet = privateKeyToAccount(privateKey);
    const exchange = (await createCcxtExchange(
      'paradex',
      { privateKey, walletAddress: wallet.address },
      { endpoint: `${sim.url}/dialects/paradex` },
    )) as unknown as ParadexCcxt;
    await exchange.onboarding();
    await control.deposit('paradex', wallet.address.toLowerCase(), '100000');
    return new Trader(exchange, await exchange.authenticateRest());
  }

  async get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${sim.url}/dialects/paradex/v1/${path}`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async byId(id: string) {
    return this.get(`orders/${id}`);
  }

  async byClientId(clientId: string) {
    return this.get(`orders/by_client_id/${clientId}`);
  }

  async history(clientId: string): Promise<ParadexOrder[]> {
    return (await this.get(`orders-history?client_id=${clientId}`)).body[
      'results'
    ] as ParadexOrder[];
  }

  async open(): Promise<ParadexOrder[]> {
    return (await this.get(`orders?market=${MARKET}`)).body['results'] as ParadexOrder[];
  }

  async fills(): Promise<Array<Record<string, unknown>>> {
    return (await this.get(`fills?market=${MARKET}`)).body['results'] as Array<
      Record<string, unknown>
    >;
  }

  /** `orders.ALL` on the venue's socket: every state of the account's orders, as they come. */
  async orderStream(): Promise<{ states: ParadexOrder[]; close: () => void }> {
    const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/dialects/paradex/v1`);
    const states: ParadexOrder[] = [];
    const replies: Array<(value: unknown) => void> = [];
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as {
        method?: string;
        params?: { data: ParadexOrder };
      };
      if (message.method === 'subscription') {
        states.push(message.params!.data);
      } else {
        replies.shift()?.(message);
      }
    });
    await new Promise((resolve) => ws.once('open', resolve));
    const call = (id: number, method: string, params: unknown) =>
      new Promise((resolve) => {
        replies.push(resolve);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    await call(1, 'auth', { bearer: this.token });
    await call(2, 'subscribe', { channel: 'orders.ALL' });
    return { states, close: () => ws.close() };
  }

  async place(
    clientId: string,
    kind: 'ioc' | 'post_only' | 'crossing',
    side: 'buy' | 'sell' = 'buy',
  ): Promise<ParadexOrder> {
    const book = await this.exchange.fetchOrderBook(SYMBOL);
    const touch = side === 'buy' ? book.asks[0][0] : book.bids[0][0];
    const behind = side === 'buy' ? book.bids[0][0] : book.asks[0][0];
    const price = kind === 'post_only' ? behind : touch;
    const params =
      kind === 'ioc'
        ? { timeInForce: 'IOC', clientOrderId: clientId }
        : { postOnly: true, clientOrderId: clientId };
    const placed = await this.exchange.createOrder(SYMBOL, 'limit', side, SIZE, price, params);
    return placed.info as ParadexOrder;
  }

  close(): Promise<void> {
    return this.exchange.close();
  }
}

/** Polls `read` until `done` holds (at most 3 s). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) {
      return value;
    }
    await sleep(25);
  }
}

const statusOf = (orders: ParadexOrder[]) => orders.map((order) => order.status);

describe('Paradex reading order_id_lookup: GET /v1/orders/{order_id}', () => {
  let trader: Trader;
  beforeAll(async () => {
    trader = await Trader.open('order-id-lookup');
  });
  afterAll(() => trader.close());
  afterEach(() => control.setDialectProfile('paradex', { order_id_lookup: 'open_only' }));

  it('open_only (documented): finds an open order; a filled, canceled or unplaced one is 404 ORDER_ID_NOT_FOUND', async () => {
    const filled = await trader.place('lookup-filled', 'ioc');
    const resting = await trader.place('lookup-resting', 'post_only');
    const crossing = await trader.place('lookup-crossing', 'crossing');
    expect((await trader.byId(resting.id)).body).toMatchObject({ id: resting.id, status: 'OPEN' });
    const notFound = { status: 404, body: { error: 'ORDER_ID_NOT_FOUND' } };
    expect(await trader.byId(filled.id)).toMatchObject(notFound);
    expect(await trader.byId(crossing.id)).toMatchObject(notFound);
    await trader.exchange.cancelOrder(resting.id, SYMBOL);
    expect(await trader.byId(resting.id)).toMatchObject(notFound);
    // The history still has all three, closed.
    for (const clientId of ['lookup-filled', 'lookup-resting', 'lookup-crossing']) {
      expect(statusOf(await trader.history(clientId))).toEqual(['CLOSED']);
    }
  });

  it('any: finds a closed order too, with its fill', async () => {
    await control.setDialectProfile('paradex', { order_id_lookup: 'any' });
    const filled = await trader.place('lookup-any-filled', 'ioc');
    const crossing = await trader.place('lookup-any-crossing', 'crossing');
    expect(await trader.byId(filled.id)).toMatchObject({
      status: 200,
      body: { id: filled.id, status: 'CLOSED', remaining_size: '0' },
    });
    expect((await trader.byId(crossing.id)).body).toMatchObject({
      status: 'CLOSED',
      cancel_reason: 'POST_ONLY_WOULD_CROSS',
    });
  });
});

describe('Paradex reading order_queue: how long an order stays NEW', () => {
  let trader: Trader;
  beforeAll(async () => {
    trader = await Trader.open('order-queue');
  });
  afterAll(() => trader.close());
  afterEach(() => control.setDialectProfile('paradex', { order_queue: 'prompt' }));

  it('prompt: the engine acts before the next request (an IOC is closed, filled, at once)', async () => {
    const placed = await trader.place('prompt-ioc', 'ioc');
    expect(placed.status).toBe('NEW');
    const [order] = await trader.history('prompt-ioc');
    expect(order).toMatchObject({ id: placed.id, status: 'CLOSED', remaining_size: '0' });
  });

  const fillsOf = async (clientId: string) =>
    (await trader.fills()).filter((fill) => fill['client_id'] === clientId);

  it('held: an IOC stays NEW with nothing filled in every read and on no stream for queue_hold_ms, then fills under the id it was answered with', async () => {
    await control.setDialectProfile('paradex', { order_queue: 'held' });
    const stream = await trader.orderStream();
    try {
      const placed = await trader.place('held-ioc', 'ioc');
      const answeredAt = Date.now();
      const queued = { id: placed.id, status: 'NEW', remaining_size: String(SIZE) };
      expect((await trader.byId(placed.id)).body).toMatchObject(queued);
      expect((await trader.byClientId('held-ioc')).body).toMatchObject(queued);
      expect(await trader.history('held-ioc')).toEqual([expect.objectContaining(queued)]);
      expect(await trader.open()).toEqual([expect.objectContaining(queued)]);
      expect(await fillsOf('held-ioc')).toEqual([]);
      expect(stream.states).toEqual([]);

      const [closed] = await until(
        () => trader.history('held-ioc'),
        (orders) => orders[0]?.status === 'CLOSED',
      );
      expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(HOLD_MS / 2);
      expect(closed).toMatchObject({ id: placed.id, status: 'CLOSED', remaining_size: '0' });
      expect(await trader.open()).toEqual([]);
      expect((await fillsOf('held-ioc')).map((fill) => fill['order_id'])).toEqual([placed.id]);
      await until(
        async () => stream.states,
        (states) => states.length > 0,
      );
      expect(stream.states.map((state) => [state.id, state.status])).toEqual([
        [placed.id, 'CLOSED'],
      ]);
    } finally {
      stream.close();
    }
  });

  it('held: a cancel of a held post-only is answered 204 and acts right after the order rests', async () => {
    await control.setDialectProfile('paradex', {
      order_queue: 'held',
      order_id_lookup: 'any',
    });
    const stream = await trader.orderStream();
    try {
      const placed = await trader.place('held-cancel', 'post_only');
      await trader.exchange.cancelOrder(placed.id, SYMBOL);
      // Still queued after the 204: NEW, not yet on the book.
      expect((await trader.byId(placed.id)).body).toMatchObject({ status: 'NEW' });
      const closed = await until(
        async () => (await trader.byId(placed.id)).body,
        (order) => order['status'] === 'CLOSED',
      );
      expect(closed).toMatchObject({ id: placed.id, cancel_reason: 'USER_CANCELED' });
      await until(
        async () => stream.states,
        (states) => states.length >= 2,
      );
      expect(stream.states.map((state) => [state.id, state.status])).toEqual([
        [placed.id, 'OPEN'],
        [placed.id, 'CLOSED'],
      ]);
    } finally {
      stream.close();
      await control.setDialectProfile('paradex', { order_id_lookup: 'open_only' });
    }
  });

  it('held: a post-only that would cross is NEW until the hold ends, then closed before the book under its id', async () => {
    await control.setDialectProfile('paradex', { order_queue: 'held' });
    const placed = await trader.place('held-crossing', 'crossing');
    expect(statusOf(await trader.history('held-crossing'))).toEqual(['NEW']);
    const [closed] = await until(
      () => trader.history('held-crossing'),
      (orders) => orders[0]?.status === 'CLOSED',
    );
    expect(closed).toMatchObject({ id: placed.id, cancel_reason: 'POST_ONLY_WOULD_CROSS' });
  });
});

describe('Paradex reading history_lag: GET /v1/orders-history', () => {
  let trader: Trader;
  beforeAll(async () => {
    trader = await Trader.open('history-lag');
  });
  afterAll(() => trader.close());
  afterEach(() => control.setDialectProfile('paradex', { history_lag: 'none' }));

  it('none: each order as it is now', async () => {
    const placed = await trader.place('now-resting', 'post_only');
    expect(statusOf(await trader.history('now-resting'))).toEqual(['OPEN']);
    await trader.exchange.cancelOrder(placed.id, SYMBOL);
    expect(statusOf(await trader.history('now-resting'))).toEqual(['CLOSED']);
  });

  it('lagging: a new order is absent until history_lag_ms old, a closed one shows its earlier state until its close is that old', async () => {
    await control.setDialectProfile('paradex', { history_lag: 'lagging' });
    const placed = await trader.place('lagging-resting', 'post_only');
    const placedAt = Date.now();
    expect(await trader.history('lagging-resting')).toEqual([]);
    // The other reads are current.
    expect((await trader.byId(placed.id)).body).toMatchObject({ status: 'OPEN' });
    const shown = await until(
      () => trader.history('lagging-resting'),
      (orders) => orders.length > 0,
    );
    expect(Date.now() - placedAt).toBeGreaterThanOrEqual(LAG_MS / 2);
    expect(statusOf(shown)).toEqual(['OPEN']);

    await trader.exchange.cancelOrder(placed.id, SYMBOL);
    const canceledAt = Date.now();
    expect(statusOf(await trader.history('lagging-resting'))).toEqual(['OPEN']);
    const closed = await until(
      () => trader.history('lagging-resting'),
      (orders) => orders[0]?.status === 'CLOSED',
    );
    expect(Date.now() - canceledAt).toBeGreaterThanOrEqual(LAG_MS / 2);
    expect(closed).toEqual([expect.objectContaining({ id: placed.id, status: 'CLOSED' })]);
  });
});
