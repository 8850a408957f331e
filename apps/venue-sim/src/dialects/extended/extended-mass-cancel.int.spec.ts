import { createCcxtExchange, type CcxtExchangeLike } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveAccountCredentials, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';

// Extended's one batch endpoint, `POST /api/v1/user/order/massCancel`
// (extended-mass-cancel.ts), as ccxt 4.5.84 sends it: cancelOrders(ids)
// names `orderIds`, cancelAllOrders(symbol) sends `cancelAll` with `markets`.

const VENUE = 'extended';
const SYMBOL = 'ETH/USDC:USDC';
const MARKET = 'ETH-USD';

let sim: RunningVenueSim;
let control: SimControl;
let exchange: CcxtExchangeLike & {
  createOrder(...args: unknown[]): Promise<{ id: string }>;
  cancelOrders(ids: string[], symbol?: string): Promise<unknown[]>;
  cancelAllOrders(symbol?: string): Promise<unknown[]>;
};
let apiKey: string;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 53, tickMs: 0 });
  control = new SimControl(sim.url);
  const label = 'extended-mass-cancel';
  const credentials = await liveAccountCredentials(VENUE, sim.url, label);
  apiKey = credentials.apiKey!;
  exchange = (await createCcxtExchange(VENUE, credentials, {
    endpoint: `${sim.url}/dialects/extended`,
  })) as typeof exchange;
  await openLiveAccount(VENUE, exchange, control, harnessWallet(label).address);
});

afterAll(async () => {
  await exchange?.close();
  await sim?.stop();
});

/** A post-only buy ten ticks under the best bid: it rests. */
async function resting(): Promise<string> {
  const market = sim.world().venue(VENUE).market(MARKET);
  const price = market.price.format(market.book.bids.top(1)[0]!.priceTicks - 10);
  const order = await exchange.createOrder(SYMBOL, 'limit', 'buy', 0.01, Number(price), {
    postOnly: true,
  });
  return String(order.id);
}

const openIds = async (): Promise<string[]> => {
  const response = await fetch(`${sim.url}/dialects/extended/api/v1/user/orders`, {
    headers: { 'x-api-key': apiKey },
  });
  const body = (await response.json()) as { data: Array<{ id: number }> };
  return body.data.map((order) => String(order.id)).sort();
};

const massCancel = (body: unknown) =>
  fetch(`${sim.url}/dialects/extended/api/v1/user/order/massCancel`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('Extended dialect: massCancel', () => {
  it('ccxt cancelOrders(ids) cancels the named orders in one request and leaves the others', async () => {
    const [a, b, c] = [await resting(), await resting(), await resting()];
    expect(await openIds()).toEqual([a, b, c].sort());
    await control.resetDialectRateLimits(VENUE);
    expect(await exchange.cancelOrders([a, c], SYMBOL)).toEqual([]);
    const [e1] = (await control.dialectRateLimits(VENUE)).pools;
    expect(e1.keys.reduce((sum, key) => sum + key.admitted_weight, 0)).toBe(1);
    expect(await openIds()).toEqual([b]);
  });

  it('ccxt cancelAllOrders(symbol) cancels every open order of the market', async () => {
    await resting();
    await resting();
    expect((await openIds()).length).toBeGreaterThanOrEqual(2);
    await exchange.cancelAllOrders(SYMBOL);
    expect(await openIds()).toEqual([]);
  });

  it('answers {status: OK, data: {}} whatever the ids name; a body selecting nothing is 1133', async () => {
    const kept = await resting();
    const answer = await massCancel({ orderIds: [999_999], externalOrderIds: ['never-sent'] });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 'OK', data: {} });
    expect(await openIds()).toEqual([kept]);
    const empty = await massCancel({});
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ status: 'ERROR', error: { code: 1133 } });
    expect(await openIds()).toEqual([kept]);
  });
});
