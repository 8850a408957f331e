import Big from 'big.js';
import {
  CcxtVenueClient,
  createCcxtExchange,
  type OrderBatch,
  type PlaceOrderRequest,
} from '@sts/venues';
import { loggedRequests, startAsterWorld, walletOf, type AsterWorld } from './aster-test-kit';

jest.setTimeout(60_000);

// What the live client's batches weigh on Aster (futures v3 document, "Place
// Multiple Orders": weight 5 for at most 5 orders; "Cancel Multiple Orders":
// weight 1 for at most 10 ids of one symbol) of A1 (2,400 a minute per IP)
// and A2 (1,200 new orders a minute per account, a batch's orders each
// under the default `batch_order_count=per_order`).
describe('aster: orders batched by the live client', () => {
  let world: AsterWorld;
  let client: CcxtVenueClient;
  let batch: OrderBatch;
  let address: string;

  beforeAll(async () => {
    world = await startAsterWorld();
    const wallet = walletOf('client-batches');
    address = wallet.address;
    await world.control.deposit('aster', address, '100000');
    const exchange = await createCcxtExchange(
      'aster',
      { privateKey: wallet.privateKey, walletAddress: address },
      { endpoint: world.endpoint },
    );
    client = new CcxtVenueClient({ venue: 'aster', exchange });
    await client.connect();
    batch = client.batch!;
  });

  afterAll(async () => {
    await client.close();
    await world.sim.stop();
  });

  const bidOf = async (symbol: string): Promise<Big> => {
    const response = await fetch(`${world.endpoint}/fapi/v3/depth?symbol=${symbol}&limit=5`);
    const book = (await response.json()) as { bids: string[][] };
    return new Big(book.bids[0]![0]!);
  };

  /** Post-only buys far under the bid, a tick apart, that rest through the spec. */
  const farBuys = async (symbol: string, tag: string, count: number, size: string) => {
    const far = (await bidOf(symbol)).times(0.9).round(0);
    return Array.from({ length: count }, (_, index): PlaceOrderRequest => ({
      symbol,
      side: 'buy',
      price: far.minus(index).toFixed(),
      size,
      clientOrderId: `${tag}-${index}`,
    }));
  };

  /** The window weight of a pool, every key together (A1: this loopback IP; A2: the account). */
  const windowWeight = async (pool: 'A1' | 'A2'): Promise<number> => {
    const report = await world.control.dialectRateLimits('aster');
    const keys = report.pools.find((p) => p.id === pool)?.keys ?? [];
    return keys.reduce((sum, key) => sum + key.window_weight, 0);
  };

  const sentSince = async (sinceMs: number): Promise<string[]> =>
    (await loggedRequests(world, address))
      .filter((request) => request.atMs >= sinceMs)
      .map((request) => `${request.method} ${request.path}`);

  it('places seven orders in two requests (5 and 2), weighing 5 each of A1 and one new order each of A2', async () => {
    const requests = await farBuys('ETHUSDT', 'seven', 7, '0.1');
    await world.control.resetDialectRateLimits('aster');
    const sinceMs = Date.now();
    const answers = await batch.placePostOnly(requests);
    expect(answers.map((answer) => answer.ok && answer.value.order.status)).toEqual(
      Array(7).fill('open'),
    );
    expect(await sentSince(sinceMs)).toEqual(Array(2).fill('POST /fapi/v3/batchOrders'));
    expect(await windowWeight('A1')).toBe(10);
    expect(await windowWeight('A2')).toBe(7);
  });

  it('cancels orders of two markets in one request a market, each weighing 1, and reads none back', async () => {
    const eth = await farBuys('ETHUSDT', 'cancel-eth', 3, '0.1');
    const btc = await farBuys('BTCUSDT', 'cancel-btc', 2, '0.01');
    for (const requests of [eth, btc]) {
      (await batch.placePostOnly(requests)).forEach((answer) => expect(answer.ok).toBe(true));
    }
    await world.control.resetDialectRateLimits('aster');
    const sinceMs = Date.now();
    const targets = [...eth, ...btc].map(({ clientOrderId, symbol }) => ({
      clientOrderId,
      symbol,
    }));
    const answers = await batch.cancel(targets);
    expect(answers.map((answer) => answer.ok && answer.value.outcome)).toEqual(
      Array(5).fill('canceled'),
    );
    const sent = await sentSince(sinceMs);
    expect(sent.filter((line) => line.includes('batchOrders'))).toEqual([
      'DELETE /fapi/v3/batchOrders',
      'DELETE /fapi/v3/batchOrders',
    ]);
    // Each cancel's outcome is the order's ORDER_TRADE_UPDATE on the user data stream (CANCELED,
    // with what it filled), as a single cancel's is: reading each back weighed 5 more.
    expect(sent.filter((line) => line === 'GET /fapi/v3/order')).toHaveLength(0);
    expect(await windowWeight('A1')).toBe(2);
    expect(await windowWeight('A2')).toBe(0);
  });
});
