import WebSocket from 'ws';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';
import { LighterKit, type Owner } from './lighter-test-kit';

// The reading `order_queue` (lighter-readings.ts) under each value, over
// Lighter's own API: `sendTx`, the authenticated order reads ccxt's look-ups
// compose (`accountActiveOrders`, `accountInactiveOrders`) and the
// `account_all_orders` stream. Under `held` the sequencer executes an order
// `queue_hold_ms` after the answer; until then it is `in-progress`.

/** The hold the held cases play (the default's 300 ms, doubled for a loaded machine's reads). */
const HOLD_MS = 600;

let sim: RunningVenueSim;
let control: SimControl;
const kit = new LighterKit(
  () => sim.url,
  () => control,
);
let nonce = Date.now();

beforeAll(async () => {
  sim = await startVenueSim({ seed: 29, tickMs: 0 });
  control = new SimControl(sim.url);
  await control.setDialectTiming('lighter', { queue_hold_ms: HOLD_MS });
});

afterAll(async () => {
  await sim.stop();
});

afterEach(() => control.setDialectProfile('lighter', { order_queue: 'prompt' }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type LighterOrder = Record<string, unknown> & { status: string; client_order_index: number };

/** Every state of the account's orders on `account_all_orders/<account>`, as they come. */
async function orderStream(owner: Owner): Promise<{ states: LighterOrder[]; close: () => void }> {
  const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/dialects/lighter/stream`);
  const states: LighterOrder[] = [];
  let subscribed: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as {
      type: string;
      orders?: Record<string, LighterOrder[]>;
    };
    if (frame.type === 'subscribed/account_all_orders') {
      subscribed();
    } else if (frame.type === 'update/account_all_orders') {
      states.push(...Object.values(frame.orders ?? {}).flat());
    }
  });
  await new Promise((resolve) => ws.once('open', resolve));
  const auth = kit.signer()['CreateAuthToken']!(
    Math.floor(Date.now() / 1000) + 600,
    owner.apiKeyIndex,
    owner.index,
  )['authToken'] as string;
  ws.send(
    JSON.stringify({ type: 'subscribe', channel: `account_all_orders/${owner.index}`, auth }),
  );
  await ready;
  return { states, close: () => ws.close() };
}

/** The account's trades of ETH, as `GET /api/v1/trades` gives them. */
async function tradesOf(owner: Owner): Promise<Array<Record<string, unknown>>> {
  const token = kit.signer()['CreateAuthToken']!(
    Math.floor(Date.now() / 1000) + 600,
    owner.apiKeyIndex,
    owner.index,
  )['authToken'] as string;
  const query = `account_index=${owner.index}&market_id=1&limit=100`;
  const response = await fetch(`${kit.endpoint()}/api/v1/trades?${query}`, {
    headers: { authorization: token },
  });
  return ((await response.json()) as { trades: Array<Record<string, unknown>> }).trades;
}

const ofClient = (orders: Array<Record<string, unknown>>, client: number) =>
  orders.filter((order) => order['client_order_index'] === client);

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

describe('Lighter reading order_queue: when the sequencer executes an order', () => {
  it('prompt: an IOC is executed by the time sendTx answers (filled, inactive)', async () => {
    const owner = await kit.owner('prompt');
    const ioc = kit.order(owner, {
      nonce: (nonce += 1),
      client: 11,
      price: await kit.best('asks'),
      timeInForce: 0,
    });
    expect((await kit.sendTx(ioc)).body['code']).toBe(200);
    expect(await kit.orders(owner, 'accountActiveOrders')).toEqual([]);
    const [order] = await kit.orders(owner, 'accountInactiveOrders');
    expect(order).toMatchObject({ client_order_index: 11, status: 'filled' });
  });

  it('held: an IOC is in-progress with nothing filled among the active orders and not streamed for queue_hold_ms, then filled', async () => {
    await control.setDialectProfile('lighter', { order_queue: 'held' });
    const owner = await kit.owner('held-ioc');
    const stream = await orderStream(owner);
    try {
      const ioc = kit.order(owner, {
        nonce: (nonce += 1),
        client: 21,
        price: await kit.best('asks'),
        timeInForce: 0,
      });
      const answer = await kit.sendTx(ioc);
      expect(answer.body).toMatchObject({ code: 200, tx_hash: expect.any(String) });
      const [active] = await kit.orders(owner, 'accountActiveOrders');
      expect(active).toMatchObject({
        client_order_index: 21,
        status: 'in-progress',
        filled_base_amount: '0.0000',
        remaining_base_amount: '0.0100',
        initial_base_amount: '0.0100',
      });
      expect(await kit.orders(owner, 'accountInactiveOrders')).toEqual([]);
      expect(stream.states).toEqual([]);
      // The transaction was taken: its nonce is used.
      expect((await kit.txsOf(owner)).map((tx) => tx.nonce)).toEqual([nonce]);

      const [filled] = await until(
        () => kit.orders(owner, 'accountInactiveOrders'),
        (orders) => orders.length > 0,
      );
      // Executed, it keeps the index it was shown with in progress: in reads, trades and frames.
      const index = active!['order_index'];
      expect(filled).toMatchObject({
        client_order_index: 21,
        status: 'filled',
        order_index: index,
      });
      expect(await kit.orders(owner, 'accountActiveOrders')).toEqual([]);
      expect((await tradesOf(owner)).map((trade) => trade['bid_id'])).toEqual([index]);
      await until(
        async () => stream.states,
        (states) => states.length > 0,
      );
      expect(
        ofClient(stream.states, 21).map((state) => [state['status'], state['order_index']]),
      ).toEqual([['filled', index]]);
    } finally {
      stream.close();
    }
  });

  it('held: a cancel of an order in progress is taken and executes right after the order rests', async () => {
    await control.setDialectProfile('lighter', { order_queue: 'held' });
    const owner = await kit.owner('held-cancel');
    const stream = await orderStream(owner);
    try {
      const price = (await kit.best('bids')) - 100;
      const placed = kit.order(owner, { nonce: (nonce += 1), client: 31, price });
      expect((await kit.sendTx(placed)).body['code']).toBe(200);
      const cancel = await kit.sendTx(kit.cancel(owner, 31, (nonce += 1)));
      expect(cancel.body).toMatchObject({ code: 200 });
      expect(ofClient(await kit.orders(owner, 'accountActiveOrders'), 31)).toEqual([
        expect.objectContaining({ status: 'in-progress' }),
      ]);
      const [canceled] = await until(
        () => kit.orders(owner, 'accountInactiveOrders'),
        (orders) => orders.length > 0,
      );
      expect(canceled).toMatchObject({ client_order_index: 31, status: 'canceled' });
      await until(
        async () => stream.states,
        (states) => states.length >= 2,
      );
      expect(ofClient(stream.states, 31).map((state) => state['status'])).toEqual([
        'open',
        'canceled',
      ]);
    } finally {
      stream.close();
    }
  });

  it('held: the API still refuses at once what it refuses (a maker order without the margin, 21739)', async () => {
    await control.setDialectProfile('lighter', { order_queue: 'held' });
    const owner = await kit.owner('held-margin', '20');
    const answer = await kit.sendTx(
      kit.order(owner, { nonce: (nonce += 1), client: 41, baseAmount: 100_000 }),
    );
    expect(answer).toEqual({
      status: 400,
      body: { code: 21739, message: 'not enough margin to create the order' },
    });
    expect(await kit.orders(owner, 'accountActiveOrders')).toEqual([]);
  });
});
