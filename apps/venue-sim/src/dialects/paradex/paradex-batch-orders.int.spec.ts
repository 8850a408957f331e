import Big from 'big.js';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createCcxtExchange } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';

// ccxt 4.5.84's createOrders / cancelOrders against the dialect's
// POST / DELETE /v1/orders/batch (docs.paradex.trade api/prod/orders/batch
// and cancel-batch; one P4 unit a batch, trading/api-best-practices).

interface ParsedOrder {
  id?: string;
  clientOrderId?: string;
  status?: string;
  info: Record<string, unknown>;
}

interface BatchCcxt {
  onboarding(): Promise<unknown>;
  fetchOrderBook(symbol: string): Promise<{ bids: number[][]; asks: number[][] }>;
  createOrders(orders: unknown[]): Promise<ParsedOrder[]>;
  cancelOrders(ids: string[], symbol?: string): Promise<ParsedOrder[]>;
  fetchOpenOrders(symbol?: string): Promise<ParsedOrder[]>;
  close(): Promise<void>;
}

const ETH = 'ETH/USD:USDC';
let sim: RunningVenueSim;
let control: SimControl;
let exchange: BatchCcxt;

const keyOf = (label: string) => keccak256(toHex(`paradex-batch-spec:${label}`));

beforeAll(async () => {
  sim = await startVenueSim({ seed: 7, tickMs: 0 });
  control = new SimControl(sim.url);
  const privateKey = keyOf('batcher');
  const wallet = privateKeyToAccount(privateKey).address;
  exchange = (await createCcxtExchange(
    'paradex',
    { privateKey, walletAddress: wallet },
    { endpoint: `${sim.url}/dialects/paradex` },
  )) as unknown as BatchCcxt;
  await exchange.onboarding();
  await control.deposit('paradex', wallet.toLowerCase(), '100000');
});

afterAll(async () => {
  await exchange.close();
  await sim.stop();
});

async function thrown(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
  throw new Error('expected the call to throw');
}

const touch = async (): Promise<{ bid: Big; ask: Big }> => {
  const book = await exchange.fetchOrderBook(ETH);
  return { bid: new Big(book.bids[0][0]), ask: new Big(book.asks[0][0]) };
};

const postOnlyBuy = (price: Big, clientOrderId: string) => ({
  symbol: ETH,
  type: 'limit',
  side: 'buy',
  amount: 0.1,
  price: price.toNumber(),
  params: { postOnly: true, clientOrderId },
});

/** What P4 (orders, per account) admitted in its minute window. */
const ordersPoolWeight = async (): Promise<number> => {
  const report = await control.dialectRateLimits('paradex');
  const keys = report.pools.find((p) => p.id === 'P4/1m')?.keys ?? [];
  return keys.reduce((sum, key) => sum + key.window_weight, 0);
};

const openClientIds = async (): Promise<(string | undefined)[]> =>
  (await exchange.fetchOpenOrders(ETH)).map((o) => o.clientOrderId);

describe('Paradex dialect: batch orders through ccxt', () => {
  it('queues three orders in one request, one unit of P4; all rest', async () => {
    const { bid } = await touch();
    await control.resetDialectRateLimits('paradex');
    const orders = await exchange.createOrders([
      postOnlyBuy(bid.minus(3), 'pbatch-a1'),
      postOnlyBuy(bid.minus(4), 'pbatch-a2'),
      postOnlyBuy(bid.minus(5), 'pbatch-a3'),
    ]);
    expect(orders.map((o) => [o.clientOrderId, o.info['status']])).toEqual([
      ['pbatch-a1', 'NEW'],
      ['pbatch-a2', 'NEW'],
      ['pbatch-a3', 'NEW'],
    ]);
    expect(await ordersPoolWeight()).toBe(1);
    expect(await openClientIds()).toEqual(
      expect.arrayContaining(['pbatch-a1', 'pbatch-a2', 'pbatch-a3']),
    );
  });

  it('queues a crossing post-only with the others and closes it alone; a duplicate client id is an entry of errors', async () => {
    const { bid, ask } = await touch();
    const orders = await exchange.createOrders([
      postOnlyBuy(bid.minus(6), 'pbatch-b1'),
      postOnlyBuy(ask, 'pbatch-b2'),
      postOnlyBuy(bid.minus(7), 'pbatch-b1'),
    ]);
    expect(orders.map((o) => o.info['status'] ?? o.info['error'])).toEqual([
      'NEW',
      'NEW',
      'DUPLICATED_CLIENT_ID',
    ]);
    expect(orders[2].status).toBe('rejected');
    const open = await openClientIds();
    expect(open).toContain('pbatch-b1');
    expect(open).not.toContain('pbatch-b2');
  });

  it('queues the cancels of several orders in one request; an unknown id is NOT_FOUND', async () => {
    const { bid } = await touch();
    const placed = await exchange.createOrders([
      postOnlyBuy(bid.minus(8), 'pbatch-c1'),
      postOnlyBuy(bid.minus(9), 'pbatch-c2'),
    ]);
    await control.resetDialectRateLimits('paradex');
    const ids = [String(placed[0].id), '123', String(placed[1].id)];
    const canceled = await exchange.cancelOrders(ids, ETH);
    expect(canceled.map((o) => [o.id, o.info['status'], o.status])).toEqual([
      [placed[0].id, 'QUEUED_FOR_CANCELLATION', 'canceled'],
      ['123', 'NOT_FOUND', 'rejected'],
      [placed[1].id, 'QUEUED_FOR_CANCELLATION', 'canceled'],
    ]);
    expect(await ordersPoolWeight()).toBe(1);
    const open = await openClientIds();
    expect(open).not.toContain('pbatch-c1');
    expect(open).not.toContain('pbatch-c2');
    const again = await exchange.cancelOrders([String(placed[0].id)], ETH);
    expect(again[0].info['status']).toBe('ALREADY_CLOSED');
  });

  it('names an order answered while held (order_queue=held) by that id in a batch cancel', async () => {
    const { bid } = await touch();
    await control.setDialectProfile('paradex', { order_queue: 'held' });
    try {
      const [placed] = await exchange.createOrders([postOnlyBuy(bid.minus(8), 'pbatch-h1')]);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await openClientIds()).toContain('pbatch-h1');
      const [canceled] = await exchange.cancelOrders([String(placed!.id)], ETH);
      expect([canceled!.id, canceled!.info['status']]).toEqual([
        placed!.id,
        'QUEUED_FOR_CANCELLATION',
      ]);
    } finally {
      await control.setDialectProfile('paradex', { order_queue: 'prompt' });
    }
  });

  it('refuses eleven orders whole (BATCH_SIZE_OUT_OF_RANGE) by the endpoint page, takes them under batch_max_orders=50', async () => {
    const { bid } = await touch();
    const eleven = (tag: string) =>
      Array.from({ length: 11 }, (_, i) => postOnlyBuy(bid.minus(10 + i), `pbatch-${tag}-${i}`));
    expect(await thrown(exchange.createOrders(eleven('d')))).toMatch(/BATCH_SIZE_OUT_OF_RANGE/);
    expect((await openClientIds()).filter((id) => id?.startsWith('pbatch-d-'))).toEqual([]);
    await control.setDialectProfile('paradex', { batch_max_orders: '50' });
    try {
      const orders = await exchange.createOrders(eleven('e'));
      expect(orders.map((o) => o.info['status'])).toEqual(Array(11).fill('NEW'));
    } finally {
      await control.setDialectProfile('paradex', { batch_max_orders: '10' });
    }
  });
});
