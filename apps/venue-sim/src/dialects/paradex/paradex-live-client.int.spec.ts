import Big from 'big.js';
import { sleep } from '@sts/platform';
import {
  CcxtVenueClient,
  PostOnlyWouldCrossError,
  VenueNetworkError,
  clientOrderIds,
  minimumSize,
  type CcxtExchangeLike,
} from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveHarnessExchange, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';

// The live client (CcxtVenueClient over ccxt 4.5.84) against the Paradex
// dialect where the venue's documents say what the old dialect did not do:
// a look-up by client id finds open orders only, a cancel is queued (204,
// the order closes after, a fill can land in between), and no list of
// cancel reasons is published.

const VENUE = 'paradex';
const SYMBOL = 'ETH-USD-PERP';
const UNIFIED = 'ETH/USD:USDC';

interface ParadexCcxt {
  fetchOrder(id: string, symbol?: string, params?: Record<string, unknown>): Promise<unknown>;
  fetchOrders(
    symbol?: string,
    since?: number,
    limit?: number,
    params?: Record<string, unknown>,
  ): Promise<{ info: Record<string, unknown> }[]>;
}

let sim: RunningVenueSim;
let control: SimControl;
let client: CcxtVenueClient;
let exchange: CcxtExchangeLike;
let wallet: string;
const LABEL = 'paradex-live-client-spec';
const nextId = clientOrderIds('live');

beforeAll(async () => {
  sim = await startVenueSim({ seed: 41, tickMs: 0 });
  control = new SimControl(sim.url);
  wallet = harnessWallet(LABEL).address;
  exchange = await exchangeOf();
  await openLiveAccount(VENUE, exchange, control, wallet);
  client = new CcxtVenueClient({ venue: VENUE, exchange });
  await client.connect();
});

const exchangeOf = (): Promise<CcxtExchangeLike> => liveHarnessExchange(VENUE, sim.url, LABEL);

afterAll(async () => {
  await client.close();
  await sim.stop();
});

afterEach(async () => {
  await control.setDialectProfile(VENUE, { client_id_lookup: 'open_only' });
  await control.setDialectProfile(VENUE, { cancel_reason_words: 'post_only_would_cross' });
});

async function top(): Promise<{ bestBid: string; bestAsk: string; ahead: string }> {
  const response = await fetch(`${sim.url}/dialects/${VENUE}/v1/orderbook/${SYMBOL}`);
  const book = (await response.json()) as { bids: string[][]; asks: string[][] };
  return { bestBid: book.bids[0][0], bestAsk: book.asks[0][0], ahead: book.bids[0][1] };
}

async function minimum(price: string): Promise<string> {
  const market = (await client.markets()).find((entry) => entry.entry.symbol === SYMBOL)!;
  return minimumSize(market, price);
}

/** The weight the dialect admitted into one of its pools since the last reset, every key together. */
async function weightOf(poolId: string): Promise<number> {
  const { pools } = await control.dialectRateLimits(VENUE);
  const pool = pools.find((entry) => entry.id === poolId)!;
  return pool.keys.reduce((total, key) => total + key.admitted_weight, 0);
}

/** Until the venue has claimed every lose-next rule: the request it held has executed. */
async function untilClaimed(): Promise<void> {
  for (;;) {
    const state = (await control.state()) as {
      venues: { id: string; lose_next: unknown[] }[];
    };
    if (state.venues.find((venue) => venue.id === VENUE)!.lose_next.length === 0) {
      return;
    }
    await sleep(5);
  }
}

describe('the live client on the Paradex dialect', () => {
  it('settles a lost IOC placement that filled from the order history, with its fill, where a look-up by client id finds open orders only', async () => {
    const { bestAsk } = await top();
    const request = {
      symbol: SYMBOL,
      side: 'buy' as const,
      price: bestAsk,
      size: await minimum(bestAsk),
      clientOrderId: nextId(),
    };
    await control.loseNext(VENUE, { op: 'place', at: 'after', then: 'drop' });
    await expect(client.placeIoc(request)).rejects.toBeInstanceOf(VenueNetworkError);

    // The venue's look-up by client id, as documented, no longer finds the closed IOC.
    const encoded = (await control.accountOrders(VENUE, wallet)).orders.at(-1)!.client_order_id;
    await expect(
      (exchange as unknown as ParadexCcxt).fetchOrder('', UNIFIED, { clientOrderId: encoded }),
    ).rejects.toThrow(/CLIENT_ORDER_ID_NOT_FOUND/);

    // A restarted worker's client: it never saw the order on the stream, so only the venue can say.
    const restarted = new CcxtVenueClient({ venue: VENUE, exchange: await exchangeOf() });
    await restarted.connect();
    const found = await restarted
      .order({ clientOrderId: request.clientOrderId, symbol: SYMBOL })
      .finally(() => restarted.close());
    expect(found.clientOrderId).toBe(request.clientOrderId);
    expect(['filled', 'canceled']).toContain(found.status);
    const fills = await client.fillsSince(0, SYMBOL);
    const own = fills.filter((fill) => fill.clientOrderId === request.clientOrderId);
    expect(own.length).toBeGreaterThan(0);
    const filled = own.reduce((total, fill) => total.plus(fill.size), new Big(0));
    expect(found.filledSize).toBe(filled.toFixed());
    expect(filled.gt(0)).toBe(true);
  });

  it("reports a cancel's true end: a fill that landed between the queued cancel's 204 and the close", async () => {
    const { bestBid, ahead } = await top();
    const size = new Big(await minimum(bestBid)).times(2).toFixed();
    const placed = await client.placePostOnly({
      symbol: SYMBOL,
      side: 'buy',
      price: bestBid,
      size,
      clientOrderId: nextId(),
    });
    expect(placed.order.status).toBe('open');
    // The cancel executes (queued, 204) and its answer is held: nothing closes the order yet.
    await control.loseNext(VENUE, { op: 'cancel', at: 'after', then: 'hang', hangMs: 700 });
    const cancelling = client.cancel({ clientOrderId: placed.order.clientOrderId, symbol: SYMBOL });
    await untilClaimed();
    const half = new Big(size).div(2).toFixed();
    await control.trade(VENUE, SYMBOL, 'sell', new Big(ahead).plus(half).toFixed(), bestBid);

    const result = await cancelling;
    expect(result.outcome).toBe('canceled');
    expect(result.order?.status).toBe('canceled');
    expect(result.order?.filledSize).toBe(half);
    // The simulator's own record agrees: half filled, then canceled.
    const recorded = (await control.accountOrders(VENUE, wallet)).orders.at(-1)!;
    expect({ status: recorded.status, filled: recorded.filled_size }).toEqual({
      status: 'canceled',
      filled: half,
    });
  });

  it("learns a queued cancel's end from the orders channel, reading nothing back", async () => {
    const { bestBid } = await top();
    const placed = await client.placePostOnly({
      symbol: SYMBOL,
      side: 'buy',
      price: bestBid,
      size: await minimum(bestBid),
      clientOrderId: nextId(),
    });
    expect(placed.order.status).toBe('open');
    await control.resetDialectRateLimits(VENUE);
    // The cancel is queued (204, its answer held a moment) and acted on at the next book
    // change: the world stands still in this spec, so a step of it is that change, and the
    // channel's CLOSED update arrives before the 204 does.
    await control.loseNext(VENUE, { op: 'cancel', at: 'after', then: 'hang', hangMs: 300 });
    const cancelling = client.cancel({ clientOrderId: placed.order.clientOrderId, symbol: SYMBOL });
    await untilClaimed();
    await control.step();

    const result = await cancelling;
    expect(result.outcome).toBe('canceled');
    expect(result.order).toMatchObject({ status: 'canceled', filledSize: '0' });
    // The cancel (P4) alone: a read of the order would weigh a unit of P5, three budget
    // tokens to the cancel's one, after every cancel of every re-quote.
    expect(await weightOf('P5/1m')).toBe(0);
    expect(await weightOf('P4/1m')).toBe(1);
  });

  it("answers an opening trade's balances from the connect's credential probe, one read of P5", async () => {
    const opening = new CcxtVenueClient({ venue: VENUE, exchange: await exchangeOf() });
    try {
      await control.resetDialectRateLimits(VENUE);
      await opening.connect();
      const balances = await opening.balances();
      expect(balances.length).toBeGreaterThan(0);
      // The probe's balance read stands for the pre-flight's: a second read would weigh 2.
      expect(await weightOf('P5/1m')).toBe(1);
      // Asked again, the balances are read anew.
      expect(await opening.balances()).toEqual(balances);
      expect(await weightOf('P5/1m')).toBe(2);
    } finally {
      await opening.close();
    }
  });

  it('takes a post-only order the venue closed at once, unfilled, for a refusal whatever the cancel reason says', async () => {
    await control.setDialectProfile(VENUE, { cancel_reason_words: 'unlisted' });
    const { bestAsk } = await top();
    const attempt = client.placePostOnly({
      symbol: SYMBOL,
      side: 'buy',
      price: bestAsk,
      size: await minimum(bestAsk),
      clientOrderId: nextId(),
    });
    await expect(attempt).rejects.toBeInstanceOf(PostOnlyWouldCrossError);
    const history = await (exchange as unknown as ParadexCcxt).fetchOrders(UNIFIED);
    expect(history.map((order) => order.info['cancel_reason'])).toContain('UNLISTED_REASON');
  });
});
