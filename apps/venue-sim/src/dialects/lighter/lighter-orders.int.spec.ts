import Big from 'big.js';
import { CcxtVenueClient, OrderRejectedError, createCcxtExchange } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { liveTestOptions } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';
import { LighterKit, type Owner } from './lighter-test-kit';

// Lighter's orders at the API: a maker order without margin refused (21739),
// an IOC's expiry 0 and a resting order's a real one (21711), the
// L2TxAttributes map as the signer writes it, and order indices from 2^48
// apart from client order indices below it.

let sim: RunningVenueSim;
let control: SimControl;
const kit = new LighterKit(
  () => sim.url,
  () => control,
);
const TWO_48 = 2 ** 48;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 13, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await sim.stop();
});

const ordersOf = async (owner: Owner) =>
  (await control.accountOrders('lighter', owner.wallet)).orders;

describe('Lighter dialect: margin', () => {
  it('refuses a maker order without the margin at the API (21739); no order exists', async () => {
    const owner = await kit.owner('maker-margin', '20');
    const answer = await kit.sendTx(
      kit.order(owner, { nonce: Date.now(), client: 1, baseAmount: 100_000 }),
    );
    expect(answer).toEqual({
      status: 400,
      body: { code: 21739, message: 'not enough margin to create the order' },
    });
    expect(await ordersOf(owner)).toEqual([]);
    expect(await kit.orders(owner, 'accountInactiveOrders')).toEqual([]);
  });

  it('accepts a taker (IOC) order without the margin; the sequencer cancels it', async () => {
    const owner = await kit.owner('taker-margin', '20');
    const ioc = kit.order(owner, {
      nonce: Date.now(),
      client: 2,
      baseAmount: 100_000,
      price: await kit.best('asks'),
      timeInForce: 0,
    });
    expect((await kit.sendTx(ioc)).body['code']).toBe(200);
    const [order] = await kit.orders(owner, 'accountInactiveOrders');
    expect(order).toMatchObject({ status: 'canceled-margin-not-allowed', client_order_index: 2 });
  });

  it('the live client maps the refusal to OrderRejectedError(insufficient_margin)', async () => {
    const owner = await kit.owner('client-margin', '20');
    const exchange = await createCcxtExchange('lighter', owner.credentials, {
      endpoint: kit.endpoint(),
      ...liveTestOptions('lighter'),
    });
    const client = new CcxtVenueClient({ venue: 'lighter', exchange });
    await client.connect();
    try {
      const placing = client.placePostOnly({
        symbol: 'ETH',
        side: 'buy',
        price: '1000',
        size: '10',
        clientOrderId: `${'cd'.repeat(15)}01`,
      });
      await expect(placing).rejects.toBeInstanceOf(OrderRejectedError);
      await expect(placing).rejects.toMatchObject({ reason: 'insufficient_margin' });
    } finally {
      await client.close();
    }
  });
});

describe('Lighter dialect: order indices', () => {
  it('gives order indices from 2^48 and cancels by either index, told apart by range', async () => {
    const owner = await kit.owner('indices');
    const base = Date.now();
    await kit.sendTx(kit.order(owner, { nonce: base, client: 41 }));
    await kit.sendTx(kit.order(owner, { nonce: base + 1, client: 42 }));
    const active = await kit.orders(owner, 'accountActiveOrders');
    expect(active.map((order) => order['client_order_index'])).toEqual([41, 42]);
    const [first, second] = active.map((order) => Number(order['order_index']));
    expect(first).toBeGreaterThanOrEqual(TWO_48);
    expect(second).toBeGreaterThanOrEqual(TWO_48);
    // By client order index (below 2^48), then by order index.
    expect((await kit.sendTx(kit.cancel(owner, 41, base + 2))).body['code']).toBe(200);
    expect((await kit.sendTx(kit.cancel(owner, second!, base + 3))).body['code']).toBe(200);
    expect(await kit.orders(owner, 'accountActiveOrders')).toEqual([]);
    const noOrder = await kit.sendTx(kit.cancel(owner, 0, base + 4));
    expect(noOrder.body['code']).toBe(21700);
    // An order index is not a client order index: a cancel of 2^48 + 41 finds nothing.
    const wrongSpace = await kit.sendTx(kit.cancel(owner, TWO_48 + 41, base + 5));
    expect(wrongSpace.body['code']).toBe(21600);
  });
});

describe('Lighter dialect: expiry and attributes', () => {
  it('refuses an IOC with an expiry, and a resting order without one or beyond 30 days (21711)', async () => {
    const owner = await kit.owner('expiry');
    const base = Date.now();
    const cases = [
      { timeInForce: 0 as const, orderExpiry: base + 3_600_000 },
      { timeInForce: 2 as const, orderExpiry: 0 },
      { timeInForce: 2 as const, orderExpiry: base + 31 * 86_400_000 },
    ];
    for (const [i, expiry] of cases.entries()) {
      const answer = await kit.sendTx(
        kit.order(owner, { nonce: base + i, client: 50 + i, ...expiry }),
      );
      expect(answer).toEqual({ status: 400, body: { code: 21711, message: 'invalid expiry' } });
    }
    expect(await kit.txsOf(owner)).toEqual([]);
  });

  it('reads L2TxAttributes as the signer writes them: skip nonce {"4": 1}; a bad map is refused', async () => {
    const owner = await kit.owner('attributes');
    const signed = kit.order(owner, { nonce: Date.now(), client: 60 });
    const info = JSON.parse(signed.txInfo) as Record<string, unknown>;
    expect(info['L2TxAttributes']).toEqual({ '4': 1 });
    expect(info).not.toHaveProperty('SkipNonce');
    const bad: Array<[unknown, number]> = [
      [{ '9': 1 }, 21501],
      [{ '4': 2 }, 21501],
      [{ '2': 1000, '4': 1 }, 21501],
      [{ '1': 718718, '3': 1000, '4': 1 }, 21146],
    ];
    for (const [i, [attributes, code]] of bad.entries()) {
      const txInfo = { ...info, L2TxAttributes: attributes, Nonce: Date.now() + i };
      expect((await kit.sendTx({ txType: 14, txInfo })).body['code']).toBe(code);
    }
    expect((await kit.sendTx(signed)).body['code']).toBe(200);
  });
});

// The worker unwinds a trade's remainder with a reduce-only IOC: ccxt 4.5.84
// signs its reduceOnly param into the create-order transaction's ReduceOnly.
describe('Lighter dialect: reduce-only IOCs', () => {
  /** The owner's ETH position from the venue's own fills. */
  const position = async (owner: Owner): Promise<string> =>
    (await control.accountFills('lighter', owner.wallet)).fills
      .filter((fill) => fill['symbol'] === 'ETH')
      .reduce(
        (net, fill) =>
          fill['side'] === 'buy'
            ? net.plus(fill['size'] as string)
            : net.minus(fill['size'] as string),
        new Big(0),
      )
      .toFixed();

  it("takes the live client's reduce-only IOC (ReduceOnly 1) down to the position; with none, canceled-reduce-only", async () => {
    const owner = await kit.owner('reduce-only');
    const exchange = await createCcxtExchange('lighter', owner.credentials, {
      endpoint: kit.endpoint(),
      ...liveTestOptions('lighter'),
    });
    const client = new CcxtVenueClient({ venue: 'lighter', exchange });
    await client.connect();
    const price = async (side: 'bids' | 'asks') => ((await kit.best(side)) / 100).toFixed(2);
    try {
      await client.placeIoc({
        symbol: 'ETH',
        side: 'buy',
        price: await price('asks'),
        size: '0.05',
        clientOrderId: 'reduce-only-open',
      });
      const unwind = await client.placeIoc({
        symbol: 'ETH',
        side: 'sell',
        price: await price('bids'),
        size: '0.08',
        clientOrderId: 'reduce-only-unwind',
        reduceOnly: true,
      });
      expect(unwind.order).toMatchObject({ filledSize: '0.05', status: 'canceled' });
      const creates = (await kit.txsOf(owner)).filter((tx) => tx.tx_type === 14);
      expect(creates.map((tx) => tx.tx_info['ReduceOnly'])).toEqual([0, 1]);
      const [closed] = await kit.orders(owner, 'accountInactiveOrders');
      expect(closed).toMatchObject({ reduce_only: true, filled_base_amount: '0.05' });
      expect(await position(owner)).toBe('0');

      const flat = await client.placeIoc({
        symbol: 'ETH',
        side: 'buy',
        price: await price('asks'),
        size: '0.05',
        clientOrderId: 'reduce-only-flat',
        reduceOnly: true,
      });
      expect(flat.order).toMatchObject({ filledSize: '0', status: 'canceled' });
      const [refused] = await kit.orders(owner, 'accountInactiveOrders');
      expect(refused).toMatchObject({ status: 'canceled-reduce-only', reduce_only: true });
      expect(await position(owner)).toBe('0');
    } finally {
      await client.close();
    }
  });

  it('refuses a resting reduce-only order (21740): the engine reduces with an IOC only', async () => {
    const owner = await kit.owner('reduce-only-resting');
    const answer = await kit.sendTx(
      kit.order(owner, { nonce: Date.now(), client: 61, reduceOnly: 1 }),
    );
    expect(answer.body).toMatchObject({ code: 21740 });
  });

  it.each([
    ['applies', '0.01'],
    ['waived', '0.006'],
  ])(
    'reduce_only_min_amounts=%s: one under the 0.005 ETH minimum is refused (21603) or taken',
    async (value, after) => {
      await control.setDialectProfile('lighter', { reduce_only_min_amounts: value });
      try {
        const owner = await kit.owner(`reduce-only-min-${value}`);
        const base = Date.now();
        const ioc = (client: number, isAsk: 0 | 1, baseAmount: number, reduceOnly: 0 | 1) =>
          kit.best(isAsk ? 'bids' : 'asks').then((price) =>
            kit.sendTx(
              kit.order(owner, {
                nonce: base + client,
                client,
                baseAmount,
                price,
                isAsk,
                timeInForce: 0,
                reduceOnly,
              }),
            ),
          );
        expect((await ioc(71, 0, 100, 0)).body['code']).toBe(200);
        const small = await ioc(72, 1, 40, 1);
        if (value === 'applies') {
          expect(small.body).toMatchObject({ code: 21603 });
        } else {
          expect(small.body['code']).toBe(200);
        }
        expect(await position(owner)).toBe(after);
      } finally {
        await control.setDialectProfile('lighter', { reduce_only_min_amounts: 'applies' });
      }
    },
  );
});
