import Big from 'big.js';
import {
  CcxtVenueClient,
  createCcxtExchange,
  type OrderBatch,
  type PlaceOrderRequest,
} from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import {
  REQUEST_TIMEOUT_MS,
  harnessWallet,
  liveAccountCredentials,
  openLiveAccount,
} from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';

jest.setTimeout(60_000);

// What the live client's batches cost on Paradex: `POST` and `DELETE
// /v1/orders/batch` are "1 rate limit unit (regardless of 1-50 orders)"
// (docs.paradex.trade trading/api-best-practices) of P4, the account's
// order limit; a placement batch takes 1 to 10 orders (api/prod/orders/batch).
const VENUE = 'paradex';
const LABEL = 'paradex-client-batches-spec';
let sim: RunningVenueSim;
let control: SimControl;
let client: CcxtVenueClient;
let batch: OrderBatch;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 43, tickMs: 0 });
  control = new SimControl(sim.url);
  const credentials = await liveAccountCredentials(VENUE, sim.url, LABEL);
  const exchange = await createCcxtExchange(VENUE, credentials, {
    endpoint: `${sim.url}/dialects/${VENUE}`,
  });
  (exchange as { timeout?: number }).timeout = REQUEST_TIMEOUT_MS;
  await openLiveAccount(VENUE, exchange, control, harnessWallet(LABEL).address);
  client = new CcxtVenueClient({ venue: VENUE, exchange });
  await client.connect();
  batch = client.batch!;
});

afterAll(async () => {
  await client.close();
  await sim.stop();
});

/** Post-only buys far under the bid, a tick apart, that rest through the spec. */
async function farBuys(symbol: string, tag: string, count: number, size: string) {
  const response = await fetch(`${sim.url}/dialects/${VENUE}/v1/orderbook/${symbol}`);
  const book = (await response.json()) as { bids: string[][] };
  const far = new Big(book.bids[0]![0]!).times(0.9).round(0);
  return Array.from({ length: count }, (_, index): PlaceOrderRequest => ({
    symbol,
    side: 'buy',
    price: far.minus(index).toFixed(),
    size,
    clientOrderId: `${tag}-${index}`,
  }));
}

/** What P4 (orders, per account) admitted in its minute window. */
async function ordersPoolWeight(): Promise<number> {
  const report = await control.dialectRateLimits(VENUE);
  const keys = report.pools.find((p) => p.id === 'P4/1m')?.keys ?? [];
  return keys.reduce((sum, key) => sum + key.window_weight, 0);
}

describe('paradex: orders batched by the live client', () => {
  it('places twelve orders in two requests (10 and 2), one unit of P4 each; all rest', async () => {
    const requests = await farBuys('ETH-USD-PERP', 'twelve', 12, '0.1');
    await control.resetDialectRateLimits(VENUE);
    const answers = await batch.placePostOnly(requests);
    expect(answers.map((answer) => answer.ok && answer.value.order.status)).toEqual(
      Array(12).fill('open'),
    );
    expect(await ordersPoolWeight()).toBe(2);
  });

  it('cancels orders of two markets in one request, one unit of P4', async () => {
    const eth = await farBuys('ETH-USD-PERP', 'cancel-eth', 3, '0.1');
    const btc = await farBuys('BTC-USD-PERP', 'cancel-btc', 2, '0.01');
    (await batch.placePostOnly([...eth, ...btc])).forEach((answer) => expect(answer.ok).toBe(true));
    await control.resetDialectRateLimits(VENUE);
    const targets = [...eth, ...btc].map(({ clientOrderId, symbol }) => ({
      clientOrderId,
      symbol,
    }));
    const answers = await batch.cancel(targets);
    expect(answers.map((answer) => answer.ok && answer.value.outcome)).toEqual(
      Array(5).fill('canceled'),
    );
    expect(await ordersPoolWeight()).toBe(1);
  });
});
