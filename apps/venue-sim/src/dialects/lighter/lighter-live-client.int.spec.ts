import Big from 'big.js';
import { makerClientOrderId, tradeTag } from '@sts/domain';
import {
  CcxtVenueClient,
  PostOnlyWouldCrossError,
  clientOrderIds,
  LIGHTER_STREAM_FATE_WAIT_MS,
  lighterClientOrderIndex,
  minimumSize,
  type CcxtExchangeLike,
} from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveHarnessExchange, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';

// What the live client (CcxtVenueClient over ccxt 4.5.84) reads on Lighter to
// learn a maker order's fate. Every read of an account's orders weighs 300 of
// L1 (24,000 a minute an L1 address): a read after each cancel of each
// re-quote is a fortieth of the account's minute.

const VENUE = 'lighter';
const SYMBOL = 'ETH';

let sim: RunningVenueSim;
let control: SimControl;
let client: CcxtVenueClient;
let wallet: string;
const LABEL = 'lighter-live-client-spec';
const nextId = clientOrderIds('live');

beforeAll(async () => {
  sim = await startVenueSim({ seed: 43, tickMs: 0 });
  control = new SimControl(sim.url);
  wallet = harnessWallet(LABEL).address;
  const exchange = await exchangeOf();
  await openLiveAccount(VENUE, exchange, control, wallet);
  client = new CcxtVenueClient({ venue: VENUE, exchange });
  await client.connect();
});

afterAll(async () => {
  await client.close();
  await sim.stop();
});

afterEach(() => control.setDialectProfile(VENUE, { order_queue: 'prompt' }));

const exchangeOf = (): Promise<CcxtExchangeLike> => liveHarnessExchange(VENUE, sim.url, LABEL);

/** A post-only buy 2 % under the best bid (ETH, market 1: cents), at the market's minimum size: it rests. */
async function farBuy(): Promise<{ symbol: string; side: 'buy'; price: string; size: string }> {
  const response = await fetch(
    `${sim.url}/dialects/${VENUE}/api/v1/orderBookOrders?market_id=1&limit=1`,
  );
  const book = (await response.json()) as { bids: Array<{ price: string }> };
  const price = new Big(book.bids[0]!.price).times(0.98).round(2, Big.roundDown).toFixed(2);
  const market = (await client.markets()).find((entry) => entry.entry.symbol === SYMBOL)!;
  return { symbol: SYMBOL, side: 'buy', price, size: minimumSize(market, price) };
}

/** The account's reads of its orders since the last reset, by kind, as L1 weighed them. */
async function orderReads(): Promise<Record<string, number>> {
  const l1 = (await control.dialectRateLimits(VENUE)).pools.find((pool) => pool.id === 'L1')!;
  const reads: Record<string, number> = {};
  for (const key of l1.keys) {
    for (const [kind, counted] of Object.entries(key.by_kind)) {
      if (/Orders$/.test(kind)) {
        reads[kind] = (reads[kind] ?? 0) + counted.admitted_weight;
      }
    }
  }
  return reads;
}

describe.each(['prompt', 'held'] as const)('lighter, order_queue=%s', (queue) => {
  it("learns a cancel's end from the account_all_orders stream, reading nothing back", async () => {
    await control.setDialectProfile(VENUE, { order_queue: queue });
    const placed = await client.placePostOnly({ ...(await farBuy()), clientOrderId: nextId() });
    expect(placed.order.status).toBe('open');
    await control.resetDialectRateLimits(VENUE);

    const result = await client.cancel({
      clientOrderId: placed.order.clientOrderId,
      symbol: SYMBOL,
    });
    expect(result.outcome).toBe('canceled');
    expect(result.order).toMatchObject({ status: 'canceled', filledSize: '0' });
    expect(await orderReads()).toEqual({});
  });

  it("learns a post-only placement's fate from the stream, reading nothing", async () => {
    await control.setDialectProfile(VENUE, { order_queue: queue });
    const request = { ...(await farBuy()), clientOrderId: nextId() };
    await control.resetDialectRateLimits(VENUE);
    const placed = await client.placePostOnly(request);
    expect(placed.order.status).toBe('open');
    expect(await orderReads()).toEqual({});
    await client.cancel({ clientOrderId: request.clientOrderId, symbol: SYMBOL });
  });

  it('takes a crossing post-only for a refusal from its canceled-post-only update, reading nothing', async () => {
    await control.setDialectProfile(VENUE, { order_queue: queue });
    const response = await fetch(
      `${sim.url}/dialects/${VENUE}/api/v1/orderBookOrders?market_id=1&limit=1`,
    );
    const book = (await response.json()) as { asks: Array<{ price: string }> };
    const price = new Big(book.asks[0]!.price).toFixed(2);
    const market = (await client.markets()).find((entry) => entry.entry.symbol === SYMBOL)!;
    await control.resetDialectRateLimits(VENUE);
    const attempt = client.placePostOnly({
      symbol: SYMBOL,
      side: 'buy',
      price,
      size: minimumSize(market, price),
      clientOrderId: nextId(),
    });
    await expect(attempt).rejects.toBeInstanceOf(PostOnlyWouldCrossError);
    expect(await orderReads()).toEqual({});
  });

  // Lighter keeps 48 bits of our 128-bit id (lighterClientOrderIndex): two maker orders of one
  // trade can share an index. The first one's closing update, still remembered, must not pass
  // for the second placement's fate: the second would rest untracked.
  it("never takes an earlier order's update under the same client index for a placement's", async () => {
    await control.setDialectProfile(VENUE, { order_queue: queue });
    const [first, second] = sharingAnIndex(tradeTag(`collide-${queue}`));
    const request = await farBuy();
    const earlier = await client.placePostOnly({ ...request, clientOrderId: first });
    await client.cancel({ clientOrderId: first, symbol: SYMBOL });
    const placed = await client.placePostOnly({ ...request, clientOrderId: second });
    expect(placed.order).toMatchObject({ clientOrderId: second, status: 'open' });
    expect(placed.order.orderId).not.toBe(earlier.order.orderId);
    const result = await client.cancel({ clientOrderId: second, symbol: SYMBOL });
    expect(result).toMatchObject({ outcome: 'canceled', order: { orderId: placed.order.orderId } });
  });
});

// While the account stream is down no update can come on it: a placement's order and a cancel's
// end are read at once, not after the second an update is waited for while it is up.
describe('lighter, the account stream down', () => {
  it('reads a placement and a cancel at once', async () => {
    const disconnected = new Promise<void>((resolve) => {
      const off = client.on('connection', (event) => {
        if (event.state === 'disconnected') {
          off();
          resolve();
        }
      });
    });
    await control.dropSockets(VENUE, 30_000);
    await disconnected;
    const request = { ...(await farBuy()), clientOrderId: nextId() };
    await control.resetDialectRateLimits(VENUE);

    const placingAt = Date.now();
    const placed = await client.placePostOnly(request);
    const placedInMs = Date.now() - placingAt;
    const result = await client.cancel({ clientOrderId: request.clientOrderId, symbol: SYMBOL });
    const canceledInMs = Date.now() - placingAt - placedInMs;

    expect(placed.order.status).toBe('open');
    expect(result).toMatchObject({ outcome: 'canceled', order: { status: 'canceled' } });
    expect(placedInMs).toBeLessThan(LIGHTER_STREAM_FATE_WAIT_MS);
    expect(canceledInMs).toBeLessThan(LIGHTER_STREAM_FATE_WAIT_MS);
    expect((await orderReads())['accountActiveOrders']).toBeGreaterThan(0);
  });
});

/** Two maker ids of one trade whose Lighter client order indices are equal. */
function sharingAnIndex(tag: string): [string, string] {
  const seen = new Map<number, string>();
  for (let quote = 1; ; quote += 1) {
    const id = makerClientOrderId(tag, quote);
    const index = lighterClientOrderIndex(id);
    const before = seen.get(index);
    if (before) {
      return [before, id];
    }
    seen.set(index, id);
  }
}
