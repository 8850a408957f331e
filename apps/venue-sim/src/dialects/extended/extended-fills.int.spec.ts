import { CcxtVenueClient, createCcxtExchange, type CcxtExchangeLike } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveAccountCredentials, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';

// Extended's fills, `GET /api/v1/user/trades`, come a page at a time: newest
// first (descending ids), `limit` items at most (10,000 at most in all),
// `pagination.cursor` naming the last one, and `cursor=<id>` the page after
// it; no time filter is documented.

const VENUE = 'extended';
const MARKET = 'ETH-USD';
const LOT = '0.001';

interface TradesAnswer {
  status: string;
  data: Array<{ id: number; side: string; createdTime: number }>;
  pagination: { cursor?: number; count: number };
}

let sim: RunningVenueSim;
let control: SimControl;
let exchange: CcxtExchangeLike;
let client: CcxtVenueClient;
let wallet: string;
let apiKey: string;
let seq = 0;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 47, tickMs: 0 });
  control = new SimControl(sim.url);
  const label = 'extended-fills';
  const credentials = await liveAccountCredentials(VENUE, sim.url, label);
  apiKey = credentials.apiKey!;
  exchange = await createCcxtExchange(VENUE, credentials, {
    endpoint: `${sim.url}/dialects/extended`,
  });
  wallet = harnessWallet(label).address;
  await openLiveAccount(VENUE, exchange, control, wallet);
  client = new CcxtVenueClient({ venue: VENUE, exchange });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
  await sim?.stop();
});

/**
 * A resting buy alone at the top of the book (a tick above the house's
 * best bid), then `count` sells of one lot each at its price by others:
 * one fill of the account each.
 */
async function fills(count: number): Promise<void> {
  const market = sim.world().venue(VENUE).market(MARKET);
  const price = market.price.format(market.book.bids.top(1)[0]!.priceTicks + 1);
  const ack = await client.placePostOnly({
    symbol: MARKET,
    side: 'buy',
    price,
    size: (count * Number(LOT)).toFixed(3),
    clientOrderId: `fills-${(seq += 1)}`,
  });
  expect(ack.order.status).toBe('open');
  for (let n = 0; n < count; n += 1) {
    expect((await control.trade(VENUE, MARKET, 'sell', LOT, price)).filled).toBe(LOT);
  }
}

const trades = async (query: string): Promise<TradesAnswer> => {
  const response = await fetch(`${sim.url}/dialects/extended/api/v1/user/trades?${query}`, {
    headers: { 'x-api-key': apiKey },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as TradesAnswer;
};

describe('Extended fills by page and time window', () => {
  it('pages the trades newest first: limit items, the cursor naming the last, the next page after it', async () => {
    await fills(12);
    const first = await trades(`market=${MARKET}&limit=3`);
    const ids = first.data.map((trade) => trade.id);
    expect(ids).toHaveLength(3);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(first.pagination).toEqual({ cursor: ids[2], count: 3 });
    const second = await trades(`market=${MARKET}&limit=3&cursor=${first.pagination.cursor}`);
    expect(second.data.length).toBeGreaterThan(0);
    expect(Math.max(...second.data.map((trade) => trade.id))).toBeLessThan(ids[2]!);
    expect((await trades(`market=${MARKET}&side=sell`)).data).toEqual([]);
    expect((await trades(`market=${MARKET}&type=liquidation`)).data).toEqual([]);
  });
});
