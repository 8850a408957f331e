import {
  CcxtVenueClient,
  PostOnlyWouldCrossError,
  createCcxtExchange,
  type CcxtExchangeLike,
} from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveAccountCredentials, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';
import { EXTENDED_READINGS } from './extended-readings';

const MARKET = 'ETH-USD';
const SIZE = '0.01';

interface QueueState {
  held: boolean;
  orders: Array<{ id: string; externalId: string; reads: number }>;
}

/**
 * Extended's asynchronous placement and the live client over it: the
 * placement answers ids only, the engine acts a moment later (held here
 * through the dialect's queue control, so the order's reads show NEW for as
 * long as the test wants), and the client takes the order's fate from the
 * account stream, never from a first read. Also the cancel of a closed order
 * under every reading of its answer, and the public REST order book.
 */
describe('Extended placement fate, cancel of a closed order, REST order book (live client)', () => {
  let sim: RunningVenueSim;
  let control: SimControl;
  let exchange: CcxtExchangeLike;
  let client: CcxtVenueClient;
  let wallet: string;
  let seq = 0;
  const nextId = () => `fate-${Date.now().toString(36)}-${(seq += 1)}`;

  beforeAll(async () => {
    sim = await startVenueSim({ seed: 41, tickMs: 0 });
    control = new SimControl(sim.url);
    const label = 'extended-fate';
    const credentials = await liveAccountCredentials('extended', sim.url, label);
    exchange = await createCcxtExchange('extended', credentials, {
      endpoint: `${sim.url}/dialects/extended`,
    });
    wallet = harnessWallet(label).address;
    await openLiveAccount('extended', exchange, control, wallet);
    client = new CcxtVenueClient({ venue: 'extended', exchange });
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
    await sim?.stop();
  });

  afterEach(async () => {
    await holdQueue(false);
    await control.setDialectProfile('extended', { first_read: 'new_then_fate' });
  });

  const holdQueue = async (hold: boolean): Promise<QueueState> => {
    const response = await fetch(`${sim.url}/dialects/extended/_sim/queue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hold }),
    });
    return (await response.json()) as QueueState;
  };

  const queueState = async (): Promise<QueueState> =>
    (await (await fetch(`${sim.url}/dialects/extended/_sim/queue`)).json()) as QueueState;

  const engineTop = () => {
    const market = sim.world().venue('extended').market(MARKET);
    const [bid] = market.book.bids.top(1);
    const [ask] = market.book.asks.top(1);
    return {
      bid: market.price.format(bid!.priceTicks),
      bidQty: market.lot.format(bid!.totalLots),
      ask: market.price.format(ask!.priceTicks),
    };
  };

  /** What the dialect's pools admitted since the last reset (E1: every request, by source address). */
  const weightSpent = async (): Promise<number> => {
    const { pools } = await control.dialectRateLimits('extended');
    const spent = pools.flatMap((pool) => pool.keys).map((key) => key.admitted_weight);
    return spent.reduce((total, weight) => total + weight, 0);
  };

  /** Waits until the client has read the queued order at least once (it saw NEW). */
  const readWhileQueued = async (externalId: string): Promise<void> => {
    for (let tries = 0; tries < 500; tries += 1) {
      const order = (await queueState()).orders.find((entry) => entry.externalId === externalId);
      if (order && order.reads >= 1) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`the client never read queued order ${externalId}`);
  };

  it('takes a post-only order read NEW, then POST_ONLY_FAILED, as a post-only refusal', async () => {
    await holdQueue(true);
    const clientOrderId = nextId();
    const placing = client.placePostOnly({
      symbol: MARKET,
      side: 'buy',
      price: engineTop().ask,
      size: SIZE,
      clientOrderId,
    });
    placing.catch(() => undefined);
    await readWhileQueued(clientOrderId);
    await holdQueue(false);
    await expect(placing).rejects.toBeInstanceOf(PostOnlyWouldCrossError);
    const { orders } = await control.accountOrders('extended', wallet, { status: 'open' });
    expect(orders.map((order) => order.client_order_id)).not.toContain(clientOrderId);
  });

  it('takes a resting post-only order read NEW as resting once the stream says so', async () => {
    await holdQueue(true);
    const clientOrderId = nextId();
    const placing = client.placePostOnly({
      symbol: MARKET,
      side: 'buy',
      price: engineTop().bid,
      size: SIZE,
      clientOrderId,
    });
    await readWhileQueued(clientOrderId);
    await holdQueue(false);
    const ack = await placing;
    expect(ack.order.status).toBe('open');
    await client.cancel({ orderId: ack.order.orderId });
  });

  it('places and cancels a resting post-only for those two requests alone: each fate from the account stream', async () => {
    await control.resetDialectRateLimits('extended');
    const clientOrderId = nextId();
    const ack = await client.placePostOnly({
      symbol: MARKET,
      side: 'buy',
      price: engineTop().bid,
      size: SIZE,
      clientOrderId,
    });
    expect(ack.order.status).toBe('open');
    // The placement alone: its NEW, left alone on the stream, is its fate; a read would weigh one more.
    expect(await weightSpent()).toBe(1);
    const result = await client.cancel({ orderId: ack.order.orderId, symbol: MARKET });
    expect(result.outcome).toBe('canceled');
    expect(result.order).toMatchObject({ clientOrderId, status: 'canceled', filledSize: '0' });
    // And the cancel: its end is the order's final update; a read of the record would weigh one more.
    expect(await weightSpent()).toBe(2);
  });

  it.each(EXTENDED_READINGS.cancel_not_open.values)(
    'says not_open, with the order as the venue has it, for a cancel of a filled order (%s)',
    async (answer) => {
      await control.setDialectProfile('extended', { cancel_not_open: answer });
      const ack = await client.placeIoc({
        symbol: MARKET,
        side: 'buy',
        price: engineTop().ask,
        size: SIZE,
        clientOrderId: nextId(),
      });
      expect(ack.order.status).toBe('filled');
      const result = await client.cancel({ orderId: ack.order.orderId, symbol: MARKET });
      expect(result.outcome).toBe('not_open');
      expect(result.order?.status).toBe('filled');
      expect(result.order?.filledSize).toBe(SIZE);
    },
  );

  it("reads the engine's top of book through ccxt fetchOrderBook (GET .../orderbook)", async () => {
    await exchange.loadMarkets();
    const unified = (exchange as unknown as { market(id: string): { symbol: string } }).market(
      MARKET,
    ).symbol;
    const book = await (
      exchange as unknown as {
        fetchOrderBook(symbol: string): Promise<{ bids: number[][]; asks: number[][] }>;
      }
    ).fetchOrderBook(unified);
    const top = engineTop();
    expect(book.bids[0]![0]).toBe(Number(top.bid));
    expect(book.bids[0]![1]).toBe(Number(top.bidQty));
    expect(book.asks[0]![0]).toBe(Number(top.ask));
  });
});
