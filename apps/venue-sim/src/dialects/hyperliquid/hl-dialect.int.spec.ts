import Big from 'big.js';
import WebSocket from 'ws';
import {
  hlCcxt,
  hlWallet,
  loggedActions,
  post,
  signUserSigned,
  signedAction,
  startHlWorld,
  type HlWorld,
} from './hl-test-kit';
import { sleep } from '@sts/platform';

// The Hyperliquid dialect over HTTP and its socket, as a client of the venue
// sees it: raw signed bodies for what ccxt never sends (a foreign key, a
// tampered body, a replayed nonce), and ccxt 4.5.84 itself for what it does.

const SOL = 2; // the asset index of SOL in the simulated venue's universe

let world: HlWorld;

beforeAll(async () => {
  world = await startHlWorld();
});

afterAll(async () => {
  await world.sim.stop();
});

/** A funded wallet of the spec. */
async function funded(label: string) {
  const wallet = hlWallet(label);
  await world.control.deposit('hyperliquid', wallet.address, '100000');
  return wallet;
}

/** The book's best bid and ask of SOL, from `l2Book`. */
async function solTop(): Promise<{ bid: string; ask: string }> {
  const { body } = await post(world, '/info', { type: 'l2Book', coin: 'SOL' });
  const { levels } = body as { levels: Array<Array<{ px: string }>> };
  return { bid: levels[0][0].px, ask: levels[1][0].px };
}

const order = (fields: Record<string, unknown>): Record<string, unknown> => ({
  type: 'order',
  orders: [
    { a: SOL, b: true, p: '100', s: '0.2', r: false, t: { limit: { tif: 'Alo' } }, ...fields },
  ],
  grouping: 'na',
});

const statuses = (body: unknown): unknown[] =>
  (body as { response: { data: { statuses: unknown[] } } }).response.data.statuses;

describe('Hyperliquid dialect: who may act', () => {
  it('refuses an action whose signer was never funded nor approved, in the venue words', async () => {
    const stranger = hlWallet('stranger');
    const answer = await post(
      world,
      '/exchange',
      await signedAction(stranger, order({}), Date.now()),
    );
    expect(answer).toEqual({
      status: 200,
      body: {
        status: 'err',
        response: `User or API Wallet ${stranger.address.toLowerCase()} does not exist.`,
      },
    });
  });

  it('a body changed after signing recovers another address and is refused the same way', async () => {
    const trader = await funded('tamper');
    const signed = await signedAction(trader, order({ p: '100' }), Date.now());
    const tampered = { ...signed, action: order({ p: '101' }) };
    const answer = await post(world, '/exchange', tampered);
    const text = (answer.body as { response: string }).response;
    expect(text).toMatch(/^User or API Wallet 0x[0-9a-f]{40} does not exist\.$/);
    expect(text).not.toContain(trader.address.toLowerCase());
    // The untouched body is the trader's own, and rests.
    const good = await post(world, '/exchange', signed);
    expect(statuses(good.body)).toEqual([{ resting: { oid: expect.any(Number) } }]);
  });

  it('refuses a nonce the signer already used, and one from more than two days ago', async () => {
    const trader = await funded('nonces');
    const nonce = Date.now();
    const first = await post(world, '/exchange', await signedAction(trader, order({}), nonce));
    expect((first.body as { status: string }).status).toBe('ok');
    const replay = await post(
      world,
      '/exchange',
      await signedAction(trader, order({ p: '99' }), nonce),
    );
    expect(replay.body).toEqual({
      status: 'err',
      response: `Invalid nonce: duplicate nonce ${nonce}`,
    });
    const stale = nonce - 3 * 86_400_000;
    const old = await post(world, '/exchange', await signedAction(trader, order({}), stale));
    expect((old.body as { response: string }).response).toMatch(
      new RegExp(`^Invalid nonce: nonce too low ${stale} < \\d+$`),
    );
  });

  it('an API wallet acts for the user once the user approved it, not before', async () => {
    const user = await funded('agent-owner');
    const agent = hlWallet('agent-key');
    const before = await post(world, '/exchange', await signedAction(agent, order({}), Date.now()));
    expect((before.body as { response: string }).response).toBe(
      `User or API Wallet ${agent.address.toLowerCase()} does not exist.`,
    );
    const nonce = Date.now();
    const approve = {
      type: 'approveAgent',
      signatureChainId: '0x66eee',
      hyperliquidChain: 'Mainnet',
      agentAddress: agent.address.toLowerCase(),
      agentName: '',
      nonce,
    };
    const signature = await signUserSigned(
      user,
      'HyperliquidTransaction:ApproveAgent',
      [
        { name: 'hyperliquidChain', type: 'string' },
        { name: 'agentAddress', type: 'address' },
        { name: 'agentName', type: 'string' },
        { name: 'nonce', type: 'uint64' },
      ],
      approve,
    );
    const approved = await post(world, '/exchange', { action: approve, nonce, signature });
    expect(approved.body).toEqual({ status: 'ok', response: { type: 'default' } });
    const after = await post(world, '/exchange', await signedAction(agent, order({}), Date.now()));
    expect(statuses(after.body)).toEqual([{ resting: { oid: expect.any(Number) } }]);
    // The order is the user's, not the agent's.
    const open = await post(world, '/info', { type: 'openOrders', user: user.address });
    expect(open.body).toHaveLength(1);
  });

  it('answers a body it cannot read with its 422', async () => {
    const broken = await post(world, '/exchange', { action: { type: 'order' }, nonce: 'x' });
    expect(broken).toEqual({
      status: 422,
      body: 'Failed to deserialize the JSON body into the target type',
    });
    const unknownInfo = await post(world, '/info', { type: 'noSuchThing' });
    expect(unknownInfo.status).toBe(422);
  });
});

describe('Hyperliquid dialect: orders', () => {
  it('keeps prices to 5 significant figures and sizes to szDecimals, integers always allowed', async () => {
    const trader = await funded('prices');
    const place = async (fields: Record<string, unknown>) =>
      statuses(
        (await post(world, '/exchange', await signedAction(trader, order(fields), Date.now())))
          .body,
      );
    expect(await place({ p: '100.001' })).toEqual([
      { error: `Price must be divisible by tick size. asset=${SOL}` },
    ]);
    expect(await place({ p: '100', s: '0.001' })).toEqual([
      { error: `Order has invalid size. asset=${SOL}` },
    ]);
    expect(await place({ p: '100', s: '0.01' })).toEqual([
      { error: `Order must have minimum value of $10. asset=${SOL}` },
    ]);
    expect(await place({ p: '99.99' })).toEqual([{ resting: { oid: expect.any(Number) } }]);
  });

  it('refuses a crossing Alo with the bbo, and an IOC with nothing to take; orderStatus knows both by cloid', async () => {
    const trader = await funded('refusals');
    const { bid, ask } = await solTop();
    const alo = '0x' + '1'.repeat(32);
    const ioc = '0x' + '2'.repeat(32);
    const crossing = await post(
      world,
      '/exchange',
      await signedAction(trader, order({ p: ask, c: alo }), Date.now()),
    );
    expect(statuses(crossing.body)).toEqual([
      {
        error: `Post only order would have immediately matched, bbo was ${bid}@${ask}. asset=${SOL}`,
      },
    ]);
    const nothing = await post(
      world,
      '/exchange',
      await signedAction(
        trader,
        order({ p: '50', c: ioc, t: { limit: { tif: 'Ioc' } } }),
        Date.now(),
      ),
    );
    expect(statuses(nothing.body)).toEqual([
      { error: `Order could not immediately match against any resting orders. asset=${SOL}` },
    ]);
    const status = async (oid: unknown) =>
      (await post(world, '/info', { type: 'orderStatus', user: trader.address, oid })).body as {
        status: string;
        order?: { status: string };
      };
    expect((await status(alo)).order?.status).toBe('badAloPxRejected');
    expect((await status(ioc)).order?.status).toBe('iocCancelRejected');
    expect(await status('0x' + '3'.repeat(32))).toEqual({ status: 'unknownOid' });
  });

  it('cancels by oid and by cloid, and says when there is nothing to cancel', async () => {
    const trader = await funded('cancels');
    const cloid = '0x' + 'a'.repeat(32);
    const placed = await post(
      world,
      '/exchange',
      await signedAction(trader, order({ c: cloid }), Date.now()),
    );
    const [{ resting }] = statuses(placed.body) as Array<{
      resting: { oid: number; cloid: string };
    }>;
    expect(resting.cloid).toBe(cloid);
    const byCloid = await post(
      world,
      '/exchange',
      await signedAction(
        trader,
        { type: 'cancelByCloid', cancels: [{ asset: SOL, cloid }] },
        Date.now(),
      ),
    );
    expect(byCloid.body).toEqual({
      status: 'ok',
      response: { type: 'cancel', data: { statuses: ['success'] } },
    });
    const again = await post(
      world,
      '/exchange',
      await signedAction(
        trader,
        { type: 'cancel', cancels: [{ a: SOL, o: resting.oid }] },
        Date.now(),
      ),
    );
    expect(statuses(again.body)).toEqual([
      { error: `Order was never placed, already canceled, or filled. asset=${SOL}` },
    ]);
  });

  it('refuses an order naming a builder the user never approved', async () => {
    const trader = await funded('builder');
    const withBuilder = {
      ...order({}),
      builder: { b: '0x6530512a6c89c7cfcebc3ba7fcd9ada5f30827a6', f: 10 },
    };
    const answer = await post(
      world,
      '/exchange',
      await signedAction(trader, withBuilder, Date.now()),
    );
    expect(answer.body).toEqual({ status: 'err', response: 'Builder fee has not been approved.' });
  });

  it("the live client's ccxt sends orders without a builder and never approves one or sets a referrer", async () => {
    const trader = await funded('ccxt');
    const exchange = await hlCcxt(world, trader);
    try {
      const { bid } = await solTop();
      const placed = await exchange.createOrder(
        'SOL/USDC:USDC',
        'limit',
        'buy',
        0.1,
        Number(bid) - 1,
        {
          postOnly: true,
          clientOrderId: '0x' + 'c'.repeat(32),
        },
      );
      expect(placed.id).toMatch(/^\d+$/);
      const actions = await loggedActions(world, trader.address);
      expect(actions.map(({ action }) => action['type'])).toEqual(['order']);
      expect(actions[0].action).not.toHaveProperty('builder');
      expect(actions[0].answer).toMatchObject({ status: 'ok' });
    } finally {
      await exchange.close();
    }
  });
});

describe('Hyperliquid dialect: reduce-only orders', () => {
  const SYMBOL = 'SOL/USDC:USDC';

  /** The wallet's SOL position from the venue's own fills. */
  async function solPosition(address: string): Promise<string> {
    const { fills } = await world.control.accountFills('hyperliquid', address);
    return fills
      .filter((fill) => fill['symbol'] === 'SOL')
      .reduce(
        (net, fill) =>
          fill['side'] === 'buy'
            ? net.plus(fill['size'] as string)
            : net.minus(fill['size'] as string),
        new Big(0),
      )
      .toFixed();
  }

  it("takes ccxt's reduce-only IOC (`r: true`) down to the position, and refuses one with nothing to reduce", async () => {
    const trader = await funded('reduce-only');
    const exchange = await hlCcxt(world, trader);
    try {
      const { bid, ask } = await solTop();
      await exchange.createOrder(SYMBOL, 'limit', 'buy', 0.5, Number(ask), { timeInForce: 'IOC' });
      const unwind = '0x' + 'd'.repeat(32);
      await exchange.createOrder(SYMBOL, 'limit', 'sell', 0.8, Number(bid), {
        timeInForce: 'IOC',
        reduceOnly: true,
        clientOrderId: unwind,
      });
      const actions = await loggedActions(world, trader.address);
      expect((actions[1].action['orders'] as unknown[])[0]).toMatchObject({
        b: false,
        s: '0.8',
        r: true,
        t: { limit: { tif: 'Ioc' } },
        c: unwind,
      });
      expect(actions[1].answer).toMatchObject({
        status: 'ok',
        response: { data: { statuses: [{ filled: { totalSz: '0.5', cloid: unwind } }] } },
      });
      expect(await solPosition(trader.address)).toBe('0');

      // Flat now: a reduce-only order in either direction would open a position.
      const flat = '0x' + 'e'.repeat(32);
      await expect(
        exchange.createOrder(SYMBOL, 'limit', 'buy', 0.5, Number(ask), {
          timeInForce: 'IOC',
          reduceOnly: true,
          clientOrderId: flat,
        }),
      ).rejects.toThrow(`Reduce only order would increase position. asset=${SOL}`);
      const status = (
        await post(world, '/info', {
          type: 'orderStatus',
          user: trader.address,
          oid: flat,
        })
      ).body as { order: { status: string; order: { reduceOnly: boolean } } };
      expect(status.order).toMatchObject({
        status: 'reduceOnlyRejected',
        order: { reduceOnly: true },
      });
      expect(await solPosition(trader.address)).toBe('0');
    } finally {
      await exchange.close();
    }
  });

  it('refuses a resting reduce-only order: the engine reduces with an IOC only', async () => {
    const trader = await funded('reduce-only-alo');
    const answer = await post(
      world,
      '/exchange',
      await signedAction(trader, order({ r: true }), Date.now()),
    );
    expect(statuses(answer.body)).toEqual([
      { error: 'The simulated venue does not trade resting reduce-only orders.' },
    ]);
  });

  it.each([
    ['applies', 'refused'],
    ['waived', 'taken'],
  ])('reduce_only_min_value=%s: a reduce-only IOC under $10 is %s', async (value) => {
    await world.control.setDialectProfile('hyperliquid', { reduce_only_min_value: value });
    try {
      const trader = await funded(`reduce-only-min-${value}`);
      const { bid, ask } = await solTop();
      const ioc = (b: boolean, s: string, r: boolean) =>
        ({
          type: 'order',
          orders: [{ a: SOL, b, p: b ? ask : bid, s, r, t: { limit: { tif: 'Ioc' } } }],
          grouping: 'na',
        }) as Record<string, unknown>;
      await post(
        world,
        '/exchange',
        await signedAction(trader, ioc(true, '0.1', false), Date.now()),
      );
      // 0.05 SOL is about 9 USD.
      const small = await post(
        world,
        '/exchange',
        await signedAction(trader, ioc(false, '0.05', true), Date.now()),
      );
      if (value === 'applies') {
        expect(statuses(small.body)).toEqual([
          { error: `Order must have minimum value of $10. asset=${SOL}` },
        ]);
        expect(await solPosition(trader.address)).toBe('0.1');
      } else {
        expect(statuses(small.body)).toEqual([
          { filled: expect.objectContaining({ totalSz: '0.05' }) },
        ]);
        expect(await solPosition(trader.address)).toBe('0.05');
      }
    } finally {
      await world.control.setDialectProfile('hyperliquid', { reduce_only_min_value: 'applies' });
    }
  });
});

describe('Hyperliquid dialect: the socket', () => {
  it('takes a post order, streams its orderUpdates and userFills, and answers ping', async () => {
    const trader = await funded('socket');
    const socket = new WebSocket(`${world.endpoint.replace('http', 'ws')}/ws`);
    const messages: Array<{ channel: string; data: unknown }> = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
    await new Promise((resolve) => socket.once('open', resolve));
    const next = async (channel: string, match: (data: unknown) => boolean = () => true) => {
      for (let i = 0; i < 400; i += 1) {
        const found = messages.find(
          (message) => message.channel === channel && match(message.data),
        );
        if (found) {
          return found.data;
        }
        await sleep(5);
      }
      throw new Error(`no ${channel} message`);
    };
    try {
      const user = trader.address.toLowerCase();
      socket.send(JSON.stringify({ method: 'ping' }));
      await next('pong');
      for (const type of ['orderUpdates', 'userFills']) {
        socket.send(JSON.stringify({ method: 'subscribe', subscription: { type, user } }));
      }
      expect(await next('userFills')).toEqual({ isSnapshot: true, user, fills: [] });
      const { ask } = await solTop();
      const ioc = order({ p: ask, s: '0.1', t: { limit: { tif: 'Ioc' } } });
      socket.send(
        JSON.stringify({
          method: 'post',
          id: 7,
          request: { type: 'action', payload: await signedAction(trader, ioc, Date.now()) },
        }),
      );
      const answer = (await next('post')) as {
        id: number;
        response: { type: string; payload: unknown };
      };
      expect(answer.id).toBe(7);
      expect(statuses(answer.response.payload)).toEqual([
        { filled: { totalSz: '0.1', avgPx: ask, oid: expect.any(Number) } },
      ]);
      const fills = (await next(
        'userFills',
        (data) => !(data as { isSnapshot?: boolean }).isSnapshot,
      )) as {
        fills: Array<Record<string, unknown>>;
      };
      expect(fills.fills).toEqual([
        expect.objectContaining({
          coin: 'SOL',
          px: ask,
          sz: '0.1',
          side: 'B',
          crossed: true,
          dir: 'Open Long',
          startPosition: '0',
        }),
      ]);
      const updates = (await next('orderUpdates')) as Array<{ status: string }>;
      expect(updates).toEqual([expect.objectContaining({ status: 'filled' })]);
      socket.send(
        JSON.stringify({ method: 'subscribe', subscription: { type: 'userFills', user } }),
      );
      expect(await next('error')).toMatch(/^Already subscribed: /);
    } finally {
      socket.close();
    }
  });
});
