import { CcxtVenueClient, createCcxtExchange, type CcxtExchangeLike } from '@sts/venues';
import { sleep } from '@sts/platform';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveAccountCredentials, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';
import { numericId } from '../engine-ids';

// Extended's fills, `GET /api/v1/user/trades`, come a page at a time: newest
// first (descending ids), `limit` items at most (10,000 at most in all),
// `pagination.cursor` naming the last one, and `cursor=<id>` the page after
// it; no time filter is documented. The live client reads a window the
// venue's way: pages back from the newest until one reaches past the window's
// start, each fill once.

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

/** Every request Extended admitted so far (each weighs 1 of E1, the IP's pool). */
const requestsAdmitted = async (): Promise<number> =>
  (await control.dialectRateLimits(VENUE)).pools[0]!.keys.reduce(
    (sum, key) => sum + key.admitted_weight,
    0,
  );

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

  it('the live client reads every fill since a time once, across more than one page', async () => {
    await fills(40);
    await sleep(5);
    const since = Date.now();
    await sleep(5);
    await fills(1_050);
    const venueFills = (await control.accountFills(VENUE, wallet, since)).fills;
    expect(venueFills).toHaveLength(1_050);
    const requestsBefore = await requestsAdmitted();
    const read = await client.fillsSince(since, MARKET);
    // More than one page: every request weighs 1 of E1, and the read sent no other.
    expect((await requestsAdmitted()) - requestsBefore).toBeGreaterThan(1);
    const ids = read.map((fill) => fill.fillId);
    expect(ids).toHaveLength(1_050);
    expect(new Set(ids)).toEqual(
      new Set(venueFills.map((fill) => String(numericId(String(fill['fill_id']))))),
    );
  });
});
