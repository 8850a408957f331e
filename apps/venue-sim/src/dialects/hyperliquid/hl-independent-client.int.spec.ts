import {
  ExchangeClient,
  HttpTransport,
  InfoClient,
  SubscriptionClient,
  WebSocketTransport,
} from '@nktkas/hyperliquid';
import WebSocket from 'ws';
import { sleep } from '@sts/platform';
import {
  clearinghouseShape,
  frontendOrderShape,
  l2BookShape,
  levelShape,
  openOrderShape,
  orderStatusShape,
  userFillShape,
} from './hl-sdk-shapes';
import { hlWallet, startHlWorld, type HlWorld } from './hl-test-kit';

// A client of the venue we did not write: the independent TypeScript SDK
// `@nktkas/hyperliquid` 0.32.2 (its own signing, nonces and request
// validation), pointed at the dialect, trades as it would on the venue. Each
// answer is held to the SDK's declared response types (hl-sdk-shapes.ts).

let world: HlWorld;
let info: InfoClient;
let exchange: ExchangeClient;
let socket: WebSocketTransport;
let subscriptions: SubscriptionClient;
const trader = hlWallet('independent-sdk');
const user = trader.address.toLowerCase() as `0x${string}`;
/**
 * A cloid above 2^53: the SDK reads orderStatus's `oid` as an integer when
 * it can (`v.union([UnsignedInteger, Cloid])`, and `Number('0x…01')` is 1),
 * so a small cloid would be sent as the oid 1.
 */
const cloid = (n: number) => `0x8${n.toString(16).padStart(31, '0')}` as `0x${string}`;

beforeAll(async () => {
  world = await startHlWorld();
  await world.control.deposit('hyperliquid', trader.address, '100000');
  // The SDK resolves `info` / `exchange` against apiUrl: a base with a path needs its slash.
  const transport = new HttpTransport({ apiUrl: `${world.endpoint}/`, timeout: 10_000 });
  info = new InfoClient({ transport });
  exchange = new ExchangeClient({ transport, wallet: trader });
  socket = new WebSocketTransport({
    url: `${world.endpoint.replace(/^http/, 'ws')}/ws`,
    timeout: 10_000,
    // Node 20 has no global WebSocket: the `ws` package is the SDK's documented alternative.
    reconnect: { WebSocket: WebSocket as unknown as typeof globalThis.WebSocket, maxRetries: 0 },
  });
  subscriptions = new SubscriptionClient({ transport: socket });
});

afterAll(async () => {
  await socket?.close();
  await world.sim.stop();
});

/** SOL's asset index from `meta` and its book's top from `l2Book`. */
async function sol(): Promise<{ asset: number; bid: string; ask: string }> {
  const meta = await info.meta();
  const asset = meta.universe.findIndex((entry) => entry.name === 'SOL');
  const book = await info.l2Book({ coin: 'SOL' });
  expect(book).toEqual(l2BookShape('SOL'));
  for (const level of [...book!.levels[0], ...book!.levels[1]]) {
    expect(level).toEqual(levelShape);
  }
  return { asset, bid: book!.levels[0][0].px, ask: book!.levels[1][0].px };
}

const limit = (asset: number, p: string, tif: 'Alo' | 'Ioc', c: `0x${string}`) => ({
  orders: [{ a: asset, b: true, p, s: '0.2', r: false, t: { limit: { tif } }, c }],
  grouping: 'na' as const,
});

describe('Hyperliquid dialect through an independent SDK (@nktkas/hyperliquid)', () => {
  it('rests an Alo order, reads it by oid, by cloid and among open orders, and cancels it both ways', async () => {
    const { asset, bid } = await sol();
    const price = String(Math.floor(Number(bid) * 0.9));
    const placed = await exchange.order(limit(asset, price, 'Alo', cloid(1)));
    const [resting] = placed.response.data.statuses;
    expect(resting).toEqual({ resting: { oid: expect.any(Number), cloid: cloid(1) } });
    const oid = (resting as { resting: { oid: number } }).resting.oid;
    const fields = { oid, cloid: cloid(1), tif: 'Alo', side: 'B', coin: 'SOL' };
    expect(await info.orderStatus({ user, oid })).toEqual(orderStatusShape(fields, 'open'));
    expect(await info.orderStatus({ user, oid: cloid(1) })).toEqual(
      orderStatusShape(fields, 'open'),
    );
    expect(await info.openOrders({ user })).toEqual([openOrderShape({ oid, cloid: cloid(1) })]);
    expect(await info.frontendOpenOrders({ user })).toEqual([frontendOrderShape(fields)]);

    const canceled = await exchange.cancel({ cancels: [{ a: asset, o: oid }] });
    expect(canceled).toEqual({
      status: 'ok',
      response: { type: 'cancel', data: { statuses: ['success'] } },
    });
    const second = await exchange.order(limit(asset, price, 'Alo', cloid(2)));
    expect(second.response.data.statuses).toEqual([
      { resting: { oid: expect.any(Number), cloid: cloid(2) } },
    ]);
    const byCloid = await exchange.cancelByCloid({ cancels: [{ asset, cloid: cloid(2) }] });
    expect(byCloid.response.data.statuses).toEqual(['success']);
    expect(await info.orderStatus({ user, oid: cloid(2) })).toEqual(
      orderStatusShape({ ...fields, oid: expect.any(Number), cloid: cloid(2) }, 'canceled'),
    );
    expect(await info.openOrders({ user })).toEqual([]);
  });

  it('fills an IOC against the book, and reads its fills and the position', async () => {
    const { asset, ask } = await sol();
    const before = Date.now();
    const taken = await exchange.order(limit(asset, ask, 'Ioc', cloid(3)));
    const [filled] = taken.response.data.statuses;
    expect(filled).toEqual({
      filled: {
        totalSz: '0.2',
        avgPx: expect.any(String),
        oid: expect.any(Number),
        cloid: cloid(3),
      },
    });
    const oid = (filled as { filled: { oid: number } }).filled.oid;
    const fill = userFillShape({ oid, coin: 'SOL', side: 'B', crossed: true, cloid: cloid(3) });
    expect(await info.userFills({ user })).toEqual([fill]);
    expect(await info.userFillsByTime({ user, startTime: before - 1 })).toEqual([fill]);
    expect(await info.userFillsByTime({ user, startTime: Date.now() + 60_000 })).toEqual([]);
    const state = await info.clearinghouseState({ user });
    expect(state).toEqual(clearinghouseShape(1));
    expect(state.assetPositions[0].position).toMatchObject({ coin: 'SOL', szi: '0.2' });
    expect(await info.orderStatus({ user, oid: cloid(3) })).toEqual(
      orderStatusShape({ oid, cloid: cloid(3), tif: 'Ioc', coin: 'SOL', side: 'B' }, 'filled'),
    );
  });

  it('streams l2Book, orderUpdates and userFills on the socket: its own order and fill', async () => {
    const books: unknown[] = [];
    const updates: unknown[][] = [];
    const fills: { isSnapshot?: true; fills: unknown[] }[] = [];
    await subscriptions.l2Book({ coin: 'SOL' }, (event) => books.push(event));
    await subscriptions.orderUpdates({ user }, (event) => updates.push(event));
    await subscriptions.userFills({ user }, (event) => fills.push(event));
    await until(() => books.length > 0 && fills.length > 0);
    expect(books[0]).toEqual(l2BookShape('SOL'));
    // The snapshot holds the fills so far (the IOC of the case before).
    expect(fills[0]).toEqual({ user, isSnapshot: true, fills: expect.arrayContaining([]) });
    for (const fill of fills[0].fills) {
      expect(fill).toEqual(userFillShape({ cloid: expect.any(String) }));
    }

    const { asset, bid, ask } = await sol();
    const resting = await exchange.order(
      limit(asset, String(Math.floor(Number(bid) * 0.9)), 'Alo', cloid(4)),
    );
    const oid = (resting.response.data.statuses[0] as { resting: { oid: number } }).resting.oid;
    await exchange.order(limit(asset, ask, 'Ioc', cloid(5)));
    await until(() => updates.flat().length >= 2 && fills.length >= 2);
    expect(updates.flat()).toEqual(
      expect.arrayContaining([
        {
          order: openOrderShape({ oid, cloid: cloid(4) }),
          status: 'open',
          statusTimestamp: expect.any(Number),
        },
        {
          order: openOrderShape({ cloid: cloid(5) }),
          status: 'filled',
          statusTimestamp: expect.any(Number),
        },
      ]),
    );
    expect(fills[fills.length - 1]).toEqual({
      user,
      fills: [userFillShape({ coin: 'SOL', side: 'B', crossed: true, cloid: cloid(5) })],
    });
    expect(books.length).toBeGreaterThan(1);
  });

  it('reads the address budget (userRateLimit): its actions used, 10,000 plus a request per USDC traded', async () => {
    const limits = await info.userRateLimit({ user });
    expect(limits).toEqual({
      cumVlm: expect.stringMatching(/^[0-9]+(\.[0-9]+)?$/),
      nRequestsUsed: expect.any(Number),
      nRequestsCap: expect.any(Number),
      nRequestsSurplus: 0,
    });
    // The cases before traded two IOCs and sent seven actions (orders and cancels).
    expect(Number(limits.cumVlm)).toBeGreaterThan(0);
    expect(limits.nRequestsCap).toBe(10_000 + Math.floor(Number(limits.cumVlm)));
    expect(limits.nRequestsUsed).toBeGreaterThanOrEqual(5);
  });
});

/** Waits for the socket's events (the dialect answers at once; the socket may lag a little). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 5_000) {
      throw new Error('the socket did not deliver in 5 s');
    }
    await sleep(20);
  }
}
