import { hlCcxt, hlWallet, loggedActions, post, startHlWorld, type HlWorld } from './hl-test-kit';

// Batched order actions as Hyperliquid documents them (docs `rate-limits`:
// "A batched request with n orders (or cancels) is treated as one request for
// IP based rate limiting, but as n requests for address-based rate limiting",
// weight 1 + floor(batch_length / 40); docs `exchange-endpoint`: one status per
// order or cancel, `{"error": …}` for the refused one), driven through ccxt
// 4.5.84's own createOrders, cancelOrders and editOrders.

const SYMBOL = 'SOL/USDC:USDC';

let world: HlWorld;

beforeAll(async () => {
  world = await startHlWorld();
});

afterAll(async () => {
  await world.sim.stop();
});

type Exchange = Awaited<ReturnType<typeof hlCcxt>> & {
  createOrders(orders: unknown[]): Promise<Array<{ id?: string }>>;
  cancelOrders(ids: string[], symbol: string): Promise<unknown[]>;
  editOrders(orders: unknown[]): Promise<Array<{ id?: string }>>;
};

/** A funded wallet and the live client's ccxt for it, markets loaded and one order sent (ccxt's first-call reads done). */
async function trader(label: string): Promise<{ address: string; exchange: Exchange }> {
  const wallet = hlWallet(`batch:${label}`);
  await world.control.deposit('hyperliquid', wallet.address, '1000000');
  const exchange = (await hlCcxt(world, wallet)) as Exchange;
  await exchange.loadMarkets();
  const [warm] = await exchange.createOrders([restingBuy(await solBid())]);
  await exchange.cancelOrders([warm.id!], SYMBOL);
  return { address: wallet.address.toLowerCase(), exchange };
}

async function solBid(): Promise<number> {
  const { body } = await post(world, '/info', { type: 'l2Book', coin: 'SOL' });
  return Number((body as { levels: Array<Array<{ px: string }>> }).levels[0][0].px);
}

async function solAsk(): Promise<number> {
  const { body } = await post(world, '/info', { type: 'l2Book', coin: 'SOL' });
  return Number((body as { levels: Array<Array<{ px: string }>> }).levels[1][0].px);
}

/** A post-only buy a dollar under the bid: it rests. */
const restingBuy = (bid: number) => ({
  symbol: SYMBOL,
  type: 'limit',
  side: 'buy',
  amount: 0.1,
  price: bid - 1,
  params: { postOnly: true },
});

/** H1's weight admitted since the last reset (one IP: the spec's). */
async function h1Weight(): Promise<number> {
  const [h1] = (await world.control.dialectRateLimits('hyperliquid')).pools;
  return h1.keys.reduce((sum, key) => sum + key.admitted_weight, 0);
}

/** The address budget the venue has counted (`userRateLimit`, read raw: it weighs 20 of H1). */
async function requestsUsed(user: string): Promise<number> {
  const { body } = await post(world, '/info', { type: 'userRateLimit', user });
  return (body as { nRequestsUsed: number }).nRequestsUsed;
}

/** The statuses of the last logged action of the user, and its type. */
async function lastAction(user: string) {
  const actions = await loggedActions(world, user);
  const last = actions[actions.length - 1];
  return {
    count: actions.length,
    type: last.action['type'],
    statuses: (last.answer as { response: { data: { statuses: unknown[] } } }).response.data
      .statuses,
  };
}

describe('Hyperliquid dialect: batched order actions through ccxt', () => {
  it('createOrders of 41 is one `order` action weighing 2 of H1 and 41 of the address budget', async () => {
    const { address, exchange } = await trader('create41');
    try {
      const bid = await solBid();
      const usedBefore = await requestsUsed(address);
      const logged = (await loggedActions(world, address)).length;
      await world.control.resetDialectRateLimits('hyperliquid');
      const placed = await exchange.createOrders(Array.from({ length: 41 }, () => restingBuy(bid)));
      expect(await h1Weight()).toBe(2);
      expect(placed).toHaveLength(41);
      expect(placed.every((order) => /^\d+$/.test(order.id ?? ''))).toBe(true);
      const last = await lastAction(address);
      expect(last.count).toBe(logged + 1);
      expect(last.type).toBe('order');
      expect(last.statuses).toHaveLength(41);
      expect(await requestsUsed(address)).toBe(usedBefore + 41);
    } finally {
      await exchange.close();
    }
  });

  it('cancelOrders of 41 is one `cancel` action weighing 2, counted 41 against the cancels’ budget', async () => {
    const { address, exchange } = await trader('cancel41');
    try {
      const bid = await solBid();
      const placed = await exchange.createOrders(Array.from({ length: 41 }, () => restingBuy(bid)));
      const usedBefore = await requestsUsed(address);
      await world.control.resetDialectRateLimits('hyperliquid');
      const canceled = await exchange.cancelOrders(
        placed.map((order) => order.id!),
        SYMBOL,
      );
      expect(await h1Weight()).toBe(2);
      expect(canceled).toHaveLength(41);
      const last = await lastAction(address);
      expect(last.type).toBe('cancel');
      expect(last.statuses).toEqual(Array.from({ length: 41 }, () => 'success'));
      expect(await requestsUsed(address)).toBe(usedBefore + 41);
    } finally {
      await exchange.close();
    }
  });

  it('editOrders of 2 is one `batchModify` weighing 1, counted 2; each replacement gets a new oid', async () => {
    const { address, exchange } = await trader('edit2');
    try {
      const bid = await solBid();
      const placed = await exchange.createOrders([restingBuy(bid), restingBuy(bid)]);
      const usedBefore = await requestsUsed(address);
      await world.control.resetDialectRateLimits('hyperliquid');
      const edited = await exchange.editOrders(
        placed.map((order) => ({ id: order.id, ...restingBuy(bid), price: bid - 2 })),
      );
      expect(await h1Weight()).toBe(1);
      const last = await lastAction(address);
      expect(last.type).toBe('batchModify');
      expect(last.statuses).toEqual([
        { resting: { oid: expect.any(Number) } },
        { resting: { oid: expect.any(Number) } },
      ]);
      expect(edited.map((order) => order.id)).toEqual(
        (last.statuses as Array<{ resting: { oid: number } }>).map(({ resting }) =>
          String(resting.oid),
        ),
      );
      expect(edited.map((order) => order.id)).not.toContain(placed[0].id);
      expect(await requestsUsed(address)).toBe(usedBefore + 2);
    } finally {
      await exchange.close();
    }
  });

  it('a batch with one crossing post-only answers per order; ccxt raises that order’s error with the whole answer', async () => {
    const { address, exchange } = await trader('partly');
    try {
      const [bid, ask] = [await solBid(), await solAsk()];
      const crossing = { ...restingBuy(bid), price: ask + 1 };
      const attempt = exchange.createOrders([restingBuy(bid), crossing, restingBuy(bid)]);
      // ccxt 4.5.84 handleErrors throws on the first status with an `error`
      // (broad match "Post only order would have immediately matched," → InvalidOrder),
      // its message the body: the other orders' oids are in it.
      await expect(attempt).rejects.toMatchObject({
        name: 'InvalidOrder',
        message: expect.stringContaining('Post only order would have immediately matched'),
      });
      const last = await lastAction(address);
      expect(last.statuses).toEqual([
        { resting: { oid: expect.any(Number) } },
        {
          error: expect.stringMatching(/^Post only order would have immediately matched, bbo was /),
        },
        { resting: { oid: expect.any(Number) } },
      ]);
      const rested = (last.statuses as Array<{ resting?: { oid: number } }>)
        .filter((status) => status.resting)
        .map((status) => String(status.resting!.oid));
      const message = await attempt.catch((error: Error) => error.message);
      for (const oid of rested) {
        expect(message).toContain(oid);
      }
      const open = (await exchange.fetchOpenOrders(SYMBOL)) as Array<{ id: string }>;
      expect(open.map((order) => order.id).sort()).toEqual([...rested].sort());
    } finally {
      await exchange.close();
    }
  });

  it('a cancel batch naming one order no longer open answers `success` and the error side by side', async () => {
    const { address, exchange } = await trader('cancel-partly');
    try {
      const bid = await solBid();
      const [kept, gone] = await exchange.createOrders([restingBuy(bid), restingBuy(bid)]);
      await exchange.cancelOrders([gone.id!], SYMBOL);
      await expect(exchange.cancelOrders([kept.id!, gone.id!], SYMBOL)).rejects.toMatchObject({
        name: 'OrderNotFound',
      });
      const last = await lastAction(address);
      expect(last.statuses).toEqual([
        'success',
        { error: expect.stringMatching(/^Order was never placed, already canceled, or filled\./) },
      ]);
      expect(await exchange.fetchOpenOrders(SYMBOL)).toEqual([]);
    } finally {
      await exchange.close();
    }
  });
});
