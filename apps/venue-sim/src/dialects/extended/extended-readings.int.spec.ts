import WebSocket from 'ws';
import { createCcxtExchange, type CcxtExchangeLike } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveAccountCredentials, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';

// The readings of what Extended's documents leave open about an order's
// fate (extended-readings.ts), each under each value, over the venue's own
// REST and account stream: how long its placement queue takes
// (`order_queue`, `queue_hold_ms`) and what the stream sends first of an
// order (`stream_first`). Orders are signed and placed by ccxt 4.5.84;
// everything else is read over the wire.

const MARKET = 'ETH-USD';
const SIZE = 0.01;
/** The hold the held cases play (short: the suite waits it out). */
const HOLD_MS = 800;

interface ExtendedCcxt {
  loadMarkets(): Promise<unknown>;
  market(id: string): { symbol: string };
  createOrder(
    symbol: string,
    type: string,
    side: string,
    amount: number,
    price: number,
    params?: Record<string, unknown>,
  ): Promise<{ id?: string; info: Record<string, unknown> }>;
}

type ExtendedOrder = Record<string, unknown> & {
  id: number;
  externalId: string;
  status: string;
  filledQty: string;
};

interface Frame {
  type: string;
  data: { orders?: ExtendedOrder[]; trades?: Array<{ externalOrderId: string }> };
}

let sim: RunningVenueSim;
let control: SimControl;
let exchange: CcxtExchangeLike;
let apiKey: string;
let seq = 0;
const nextId = (label: string) => `${label}-${Date.now().toString(36)}-${(seq += 1)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  sim = await startVenueSim({ seed: 43, tickMs: 0 });
  control = new SimControl(sim.url);
  await control.setDialectTiming('extended', { queue_hold_ms: HOLD_MS });
  const label = 'extended-readings';
  const credentials = await liveAccountCredentials('extended', sim.url, label);
  apiKey = credentials.apiKey!;
  exchange = await createCcxtExchange('extended', credentials, {
    endpoint: `${sim.url}/dialects/extended`,
  });
  await openLiveAccount('extended', exchange, control, harnessWallet(label).address);
  await exchange.loadMarkets();
});

afterAll(async () => {
  await exchange?.close();
  await sim?.stop();
});

afterEach(() =>
  control.setDialectProfile('extended', { order_queue: 'prompt', stream_first: 'fate' }),
);

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${sim.url}/dialects/extended/api/v1/${path}`, {
    headers: { 'x-api-key': apiKey },
  });
  return ((await response.json()) as { data: T }).data;
}

const byId = (id: number) => get<ExtendedOrder>(`user/orders/${id}`);
const byExternalId = async (externalId: string) =>
  (await get<ExtendedOrder[]>(`user/orders/external/${externalId}`))[0];
const openOrders = () => get<ExtendedOrder[]>(`user/orders?market=${MARKET}`);
const tradesOf = async (externalId: string) =>
  (await get<Array<{ externalOrderId: string }>>(`user/trades?market=${MARKET}`)).filter(
    (trade) => trade.externalOrderId === externalId,
  );

/** The account stream's ORDER and TRADE frames, as they come. */
async function accountStream(): Promise<{ frames: Frame[]; close: () => void }> {
  const url = `${sim.url.replace('http', 'ws')}/dialects/extended/stream.extended.exchange/v1/account`;
  const ws = new WebSocket(url, { headers: { 'x-api-key': apiKey } });
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
  await new Promise((resolve) => ws.once('open', resolve));
  return { frames, close: () => ws.close() };
}

/** What the stream said of one order, in order: `ORDER <status> <filledQty>` and `TRADE`. */
const streamedOf = (frames: Frame[], externalId: string): string[] =>
  frames.flatMap((frame) => [
    ...(frame.data.orders ?? [])
      .filter((order) => order.externalId === externalId)
      .map((order) => `ORDER ${order.status} ${Number(order.filledQty)}`),
    ...(frame.data.trades ?? [])
      .filter((trade) => trade.externalOrderId === externalId)
      .map(() => 'TRADE'),
  ]);

async function place(
  externalId: string,
  kind: 'ioc' | 'post_only' | 'crossing',
): Promise<{ id: number; externalId: string }> {
  const market = sim.world().venue('extended').market(MARKET);
  const bid = market.price.format(market.book.bids.top(1)[0]!.priceTicks);
  const ask = market.price.format(market.book.asks.top(1)[0]!.priceTicks);
  const params =
    kind === 'ioc'
      ? { timeInForce: 'IOC', clientOrderId: externalId }
      : { postOnly: true, clientOrderId: externalId };
  const placed = await (exchange as unknown as ExtendedCcxt).createOrder(
    (exchange as unknown as ExtendedCcxt).market(MARKET).symbol,
    'limit',
    'buy',
    SIZE,
    Number(kind === 'post_only' ? bid : ask),
    params,
  );
  // The answer names the order by a string id; reads and the stream by a number.
  const info = placed.info as { id: string; externalId: string };
  return { id: Number(info.id), externalId: info.externalId };
}

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

describe('Extended reading order_queue: how long the placement queue takes', () => {
  it('prompt: the engine acts a moment after the answer (an IOC is FILLED within a few reads)', async () => {
    const externalId = nextId('prompt-ioc');
    const answeredAt = Date.now();
    await place(externalId, 'ioc');
    const order = await until(
      () => byExternalId(externalId),
      (read) => read?.status === 'FILLED',
    );
    expect(Number(order?.filledQty)).toBe(SIZE);
    expect(Date.now() - answeredAt).toBeLessThan(HOLD_MS);
  });

  it('held: an IOC reads NEW with nothing filled everywhere and is not streamed for queue_hold_ms, then FILLED', async () => {
    await control.setDialectProfile('extended', { order_queue: 'held' });
    const stream = await accountStream();
    try {
      const externalId = nextId('held-ioc');
      const { id } = await place(externalId, 'ioc');
      const queued = { id, externalId, status: 'NEW', filledQty: '0' };
      expect(await byId(id)).toMatchObject(queued);
      expect(await byExternalId(externalId)).toMatchObject(queued);
      expect(await openOrders()).toEqual([expect.objectContaining(queued)]);
      expect(await tradesOf(externalId)).toEqual([]);
      expect(streamedOf(stream.frames, externalId)).toEqual([]);

      const filled = await until(
        () => byId(id),
        (read) => read.status === 'FILLED',
      );
      expect(filled).toMatchObject({ id, status: 'FILLED' });
      expect(Number(filled.filledQty)).toBe(SIZE);
      expect(await openOrders()).toEqual([]);
      expect(await tradesOf(externalId)).toHaveLength(1);
      await until(
        async () => streamedOf(stream.frames, externalId),
        (streamed) => streamed.length >= 2,
      );
      expect(streamedOf(stream.frames, externalId)).toEqual(['TRADE', `ORDER FILLED ${SIZE}`]);
    } finally {
      stream.close();
    }
  });

  it('held: a cancel of a held post-only is answered OK and acts right after the order rests', async () => {
    await control.setDialectProfile('extended', { order_queue: 'held' });
    const stream = await accountStream();
    try {
      const externalId = nextId('held-cancel');
      const { id } = await place(externalId, 'post_only');
      const cancel = await fetch(`${sim.url}/dialects/extended/api/v1/user/order/${id}`, {
        method: 'DELETE',
        headers: { 'x-api-key': apiKey },
      });
      expect(await cancel.json()).toEqual({ status: 'OK' });
      expect(await byId(id)).toMatchObject({ status: 'NEW' });
      const canceled = await until(
        () => byId(id),
        (read) => read.status === 'CANCELLED',
      );
      expect(canceled).toMatchObject({ id, status: 'CANCELLED' });
      expect(Number(canceled.filledQty)).toBe(0);
      await until(
        async () => streamedOf(stream.frames, externalId),
        (streamed) => streamed.length >= 2,
      );
      expect(streamedOf(stream.frames, externalId)).toEqual(['ORDER NEW 0', 'ORDER CANCELLED 0']);
    } finally {
      stream.close();
    }
  });

  it("held: the simulator's queue control still holds a placement past its hold", async () => {
    await control.setDialectProfile('extended', { order_queue: 'held' });
    const queue = (hold: boolean) =>
      fetch(`${sim.url}/dialects/extended/_sim/queue`, {
        method: 'POST',
        body: JSON.stringify({ hold }),
      });
    await queue(true);
    try {
      const externalId = nextId('held-control');
      const { id } = await place(externalId, 'ioc');
      await sleep(HOLD_MS + 200);
      expect(await byId(id)).toMatchObject({ status: 'NEW' });
    } finally {
      await queue(false);
    }
    expect(
      await until(
        () => openOrders(),
        (orders) => orders.length === 0,
      ),
    ).toEqual([]);
  });
});

describe('Extended reading stream_first: what the account stream sends first of an order', () => {
  it('fate: a taker IOC filled at once is streamed FILLED, never NEW', async () => {
    const stream = await accountStream();
    try {
      const externalId = nextId('fate-ioc');
      await place(externalId, 'ioc');
      await until(
        async () => streamedOf(stream.frames, externalId),
        (streamed) => streamed.includes(`ORDER FILLED ${SIZE}`),
      );
      expect(streamedOf(stream.frames, externalId)).toEqual(['TRADE', `ORDER FILLED ${SIZE}`]);
    } finally {
      stream.close();
    }
  });

  it('new_then_fate: every order is streamed NEW with nothing filled first, then its state', async () => {
    await control.setDialectProfile('extended', { stream_first: 'new_then_fate' });
    const stream = await accountStream();
    try {
      const taker = nextId('first-ioc');
      const crossing = nextId('first-crossing');
      const resting = nextId('first-resting');
      await place(taker, 'ioc');
      await place(crossing, 'crossing');
      await place(resting, 'post_only');
      await until(
        async () => streamedOf(stream.frames, resting),
        (streamed) => streamed.length > 0,
      );
      expect(streamedOf(stream.frames, taker)).toEqual([
        'ORDER NEW 0',
        'TRADE',
        `ORDER FILLED ${SIZE}`,
      ]);
      expect(streamedOf(stream.frames, crossing)).toEqual(['ORDER NEW 0', 'ORDER REJECTED 0']);
      // A resting order's first state is NEW already: sent once.
      expect(streamedOf(stream.frames, resting)).toEqual(['ORDER NEW 0']);
    } finally {
      stream.close();
    }
  });
});
