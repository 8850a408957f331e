import {
  CcxtVenueClient,
  OrderRejectedError,
  RateLimitedError,
  createCcxtExchange,
  type VenueClient,
} from '@sts/venues';
import { harnessCredentials, openLiveAccount } from '../../testing/live-harness';
import { hlWallet, post, signedAction, startHlWorld, type HlWorld } from './hl-test-kit';

// What Hyperliquid's documents leave open or answer in their own form, at
// the venue's protocol and through the live client: a cloid sent again
// (reading `duplicate_cloid`, both values), and a request over the per-IP
// weight limit H1 (429, null body: the status the SDKs' reports show).

const SOL = 2; // the asset index of SOL in the simulated venue's universe

let world: HlWorld;

beforeAll(async () => {
  world = await startHlWorld();
});

afterAll(async () => {
  await world.sim.stop();
});

afterEach(async () => {
  // Each case starts as after a quiet minute: the published H1, nothing counted yet.
  await world.control.setDialectRateLimits('hyperliquid', {});
  await world.control.resetDialectRateLimits('hyperliquid');
  await world.control.setDialectProfile('hyperliquid', {
    duplicate_cloid: 'refuse',
    fill_cloid: 'carried',
  });
});

async function funded(label: string) {
  const wallet = hlWallet(label);
  await world.control.deposit('hyperliquid', wallet.address, '100000');
  return wallet;
}

/** The live client (CcxtVenueClient over ccxt 4.5.84) for a funded wallet of the spec. */
async function liveClient(label: string): Promise<VenueClient> {
  const credentials = harnessCredentials(`hyperliquid-readings:${label}`);
  const exchange = await createCcxtExchange('hyperliquid', credentials, {
    endpoint: world.endpoint,
  });
  await openLiveAccount('hyperliquid', exchange, world.control, credentials.walletAddress!);
  const client = new CcxtVenueClient({ venue: 'hyperliquid', exchange });
  await client.connect();
  return client;
}

const alo = (p: string, c: string) => ({
  type: 'order',
  orders: [{ a: SOL, b: true, p, s: '0.2', r: false, t: { limit: { tif: 'Alo' } }, c }],
  grouping: 'na',
});

const statuses = (body: unknown): unknown[] =>
  (body as { response: { data: { statuses: unknown[] } } }).response.data.statuses;

describe('Hyperliquid dialect: a cloid sent again (reading duplicate_cloid)', () => {
  async function reuseAfterCancel(label: string) {
    const trader = await funded(label);
    const cloid = '0x' + label.length.toString(16).padStart(2, '0') + 'ab'.repeat(15);
    const send = async (action: Record<string, unknown>) =>
      (await post(world, '/exchange', await signedAction(trader, action, Date.now()))).body;
    const first = statuses(await send(alo('90', cloid)));
    expect(first).toEqual([{ resting: { oid: expect.any(Number), cloid } }]);
    // While the first order rests, its cloid is refused under every reading.
    expect(statuses(await send(alo('91', cloid)))).toEqual([
      { error: `Duplicate cloid. asset=${SOL}` },
    ]);
    const canceled = await send({ type: 'cancelByCloid', cancels: [{ asset: SOL, cloid }] });
    expect(statuses(canceled)).toEqual(['success']);
    const again = statuses(await send(alo('92', cloid)));
    const status = await post(world, '/info', {
      type: 'orderStatus',
      user: trader.address,
      oid: cloid,
    });
    return { trader, cloid, first, again, status: status.body as Record<string, unknown> };
  }

  it('refuse: the cloid stays refused after its order is canceled', async () => {
    const { again, status } = await reuseAfterCancel('dup-refuse');
    expect(again).toEqual([{ error: `Duplicate cloid. asset=${SOL}` }]);
    expect(status).toMatchObject({ status: 'order', order: { status: 'canceled' } });
  });

  it('refuse_while_open: once canceled, the cloid places a new order that reads and cancels by it', async () => {
    await world.control.setDialectProfile('hyperliquid', { duplicate_cloid: 'refuse_while_open' });
    const { trader, cloid, first, again, status } = await reuseAfterCancel('dup-while-open');
    const oid = (again[0] as { resting: { oid: number } }).resting.oid;
    expect(again).toEqual([{ resting: { oid, cloid } }]);
    expect(oid).not.toBe((first[0] as { resting: { oid: number } }).resting.oid);
    expect(status).toMatchObject({
      status: 'order',
      order: { status: 'open', order: { oid, cloid, limitPx: '92' } },
    });
    const open = await post(world, '/info', { type: 'frontendOpenOrders', user: trader.address });
    expect(open.body).toEqual([expect.objectContaining({ oid, cloid })]);
    const cancel = await post(
      world,
      '/exchange',
      await signedAction(
        trader,
        { type: 'cancelByCloid', cancels: [{ asset: SOL, cloid }] },
        Date.now(),
      ),
    );
    expect(statuses(cancel.body)).toEqual(['success']);
  });
});

describe('Hyperliquid live client: a duplicate refusal is an outcome only for the same order', () => {
  for (const reading of ['refuse', 'refuse_while_open'] as const) {
    it(`${reading}: a cloid reused for another price is refused, not taken for the first order`, async () => {
      await world.control.setDialectProfile('hyperliquid', { duplicate_cloid: reading });
      const client = await liveClient(`same-order-${reading}`);
      try {
        const request = {
          symbol: 'SOL',
          side: 'buy' as const,
          price: '90',
          size: '0.2',
          clientOrderId: `dup-${reading}`,
        };
        const first = await client.placePostOnly(request);
        const replay = await client.placePostOnly(request);
        expect(replay).toMatchObject({ duplicate: true, order: { orderId: first.order.orderId } });
        const other = client.placePostOnly({ ...request, price: '89' });
        await expect(other).rejects.toBeInstanceOf(OrderRejectedError);
        await expect(other).rejects.toMatchObject({ reason: 'duplicate_client_order_id' });
        const open = await client.openOrders('SOL');
        expect(open.map((order) => [order.orderId, order.price])).toEqual([
          [first.order.orderId, '90'],
        ]);
      } finally {
        await client.close();
      }
    });
  }
});

describe('Hyperliquid: fills with and without their cloid (reading fill_cloid)', () => {
  for (const reading of ['carried', 'absent'] as const) {
    it(`${reading}: the dialect's fills, and a new live client still knows its fill by our id`, async () => {
      await world.control.setDialectProfile('hyperliquid', { fill_cloid: reading });
      const label = `fill-cloid-${reading}`;
      const placer = await liveClient(label);
      const book = await post(world, '/info', { type: 'l2Book', coin: 'SOL' });
      const ask = (book.body as { levels: Array<Array<{ px: string }>> }).levels[1][0].px;
      // The service's own form (32 hex): a client that never placed it reads it back from the cloid.
      const clientOrderId = (reading === 'carried' ? 'c' : 'a').repeat(32);
      try {
        const ack = await placer.placeIoc({
          symbol: 'SOL',
          side: 'buy',
          price: ask,
          size: '0.2',
          clientOrderId,
        });
        expect(ack.order).toMatchObject({ filledSize: '0.2' });
      } finally {
        await placer.close();
      }
      const wallet = harnessCredentials(`hyperliquid-readings:${label}`).walletAddress!;
      const fills = await post(world, '/info', { type: 'userFills', user: wallet });
      const [fill] = fills.body as Record<string, unknown>[];
      expect('cloid' in fill).toBe(reading === 'carried');
      // A client that never placed the order (a restarted worker) learns our id all the same.
      const restarted = await liveClient(label);
      try {
        const known = await restarted.fillsSince(0, 'SOL');
        expect(known.map((entry) => entry.clientOrderId)).toEqual([clientOrderId]);
      } finally {
        await restarted.close();
      }
    });
  }
});

describe('Hyperliquid dialect: over the per-IP weight limit (H1)', () => {
  /** H1 holding `capacity` weight from now on (its counts cleared). */
  const squeeze = async (capacity: number) => {
    await world.control.resetDialectRateLimits('hyperliquid');
    await world.control.setDialectRateLimits('hyperliquid', { pools: { H1: { capacity } } });
  };

  it('refuses an action and a read with 429 and a null body, each by its weight', async () => {
    const trader = await funded('over-limit');
    const order = async (cloid: string) =>
      post(world, '/exchange', await signedAction(trader, alo('90', cloid), Date.now()));
    await squeeze(1);
    // openOrders weighs 20, more than the whole pool: refused, nothing admitted.
    expect(await post(world, '/info', { type: 'openOrders', user: trader.address })).toEqual({
      status: 429,
      body: null,
    });
    // An unbatched action weighs 1: the first fits, the second does not.
    expect((await order('0x' + 'cd'.repeat(16))).body).toMatchObject({ status: 'ok' });
    expect(await order('0x' + 'ce'.repeat(16))).toEqual({ status: 429, body: null });
    const [h1] = (await world.control.dialectRateLimits('hyperliquid')).pools;
    expect(h1.keys).toEqual([
      {
        key: 'ip:127.0.0.1',
        window_weight: 1,
        max_window_weight: 1,
        admitted_weight: 1,
        refused: 2,
        by_kind: {
          exchange: { admitted_weight: 1, refused: 1 },
          'info:openOrders': { admitted_weight: 0, refused: 1 },
        },
      },
    ]);
  });

  it('the live client sees RateLimitedError for a read and for an action', async () => {
    const client = await liveClient('over-limit');
    const place = (clientOrderId: string) =>
      client.placePostOnly({ symbol: 'SOL', side: 'buy', price: '90', size: '0.2', clientOrderId });
    try {
      await squeeze(1);
      const reading = client.openOrders('SOL');
      await expect(reading).rejects.toBeInstanceOf(RateLimitedError);
      await expect(reading).rejects.toMatchObject({ retryAfterMs: 1_000 });
      // The pool holds one unbatched action: whatever the first placement
      // took of it, the next one is over.
      await place('over-limit-1').catch(() => undefined);
      await expect(place('over-limit-2')).rejects.toBeInstanceOf(RateLimitedError);
    } finally {
      await client.close();
    }
  });

  describe('the address budget (H5-H6)', () => {
    const setInitial = (requests: number) =>
      fetch(`${world.endpoint}/_sim/address-budget`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ initial_requests: requests }),
      });

    afterEach(async () => {
      await setInitial(10_000);
    });

    it('over its cumulative requests, one action gets through in 10 s and the rest get the text', async () => {
      const trader = await funded('address-budget');
      expect((await setInitial(2)).status).toBe(200);
      const order = async (p: string) =>
        post(
          world,
          '/exchange',
          await signedAction(
            trader,
            {
              type: 'order',
              orders: [{ a: SOL, b: true, p, s: '0.2', r: false, t: { limit: { tif: 'Alo' } } }],
              grouping: 'na',
            },
            Date.now(),
          ),
        );
      for (const price of ['90', '91', '92']) {
        // Two within the budget, the third the one a 10 s gets through.
        expect((await order(price)).body).toMatchObject({ status: 'ok' });
      }
      // userRateLimit tells what is left (cap less used) before the refusal.
      expect(
        (await post(world, '/info', { type: 'userRateLimit', user: trader.address })).body,
      ).toEqual({ cumVlm: '0.000000', nRequestsUsed: 3, nRequestsCap: 2, nRequestsSurplus: 0 });
      const refused = await order('93');
      expect(refused.status).toBe(200);
      expect(refused.body).toEqual({
        status: 'err',
        response:
          'Too many cumulative requests sent (4 > 2) for cumulative volume traded $0.00. Place taker orders to free up 1 request per USDC traded.',
      });
    });

    it('the live client sees RateLimitedError with a 10 s retry', async () => {
      const client = await liveClient('address-budget-live');
      const place = (clientOrderId: string) =>
        client.placePostOnly({
          symbol: 'SOL',
          side: 'buy',
          price: '90',
          size: '0.2',
          clientOrderId,
        });
      try {
        expect((await setInitial(0)).status).toBe(200);
        await place('address-1').catch(() => undefined);
        // userRateLimit: the actions sent (the credential probe's cancel, the placement) over a cap of 0.
        const told = await client.cumulativeBudget!();
        expect(told).toMatchObject({ spentPaceMs: 10_000 });
        expect(told!.left).toBeLessThan(0);
        const over = place('address-2');
        await expect(over).rejects.toBeInstanceOf(RateLimitedError);
        await expect(over).rejects.toMatchObject({ retryAfterMs: 10_000 });
      } finally {
        await client.close();
      }
    });
  });
});
