import Big from 'big.js';
import { CcxtVenueClient, createCcxtExchange, type CcxtExchangeLike } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveAccountCredentials, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';

// Extended's funding payments, `GET /api/v1/user/funding/history`, as the
// venue documents them and ccxt 4.5.84's fetchFundingHistory reads them:
// the `X-Api-Key`'s account, newest first by id, `market`, `side`,
// `fromTime`, `limit` and `cursor`; `fundingFee` signed as the collateral
// moved. Checked against what the simulator recorded
// (`/control/venues/extended/accounts/<wallet>/funding`); then read back by
// the live client (CcxtVenueClient over the unmodified ccxt), across pages.

const VENUE = 'extended';
const MARKET = 'ETH-USD';

interface FundingAnswer {
  status: string;
  data: Array<{
    id: number;
    accountId: number;
    market: string;
    positionId: number;
    side: string;
    size: string;
    value: string;
    markPrice: string;
    fundingFee: string;
    fundingRate: string;
    paidTime: number;
  }>;
  pagination: { cursor?: number; count: number };
}

interface RecordedPayment {
  symbol: string;
  ts_ms: number;
  rate: string;
  size: string;
  mark_price: string;
  amount: string;
}

let sim: RunningVenueSim;
let control: SimControl;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 63, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await sim.stop();
});

/** An account of the spec: the live client to trade, its API key for the wire. */
class Trader {
  private seq = 0;

  private constructor(
    readonly wallet: string,
    readonly apiKey: string,
    readonly exchange: CcxtExchangeLike,
    readonly client: CcxtVenueClient,
  ) {}

  static async open(label: string): Promise<Trader> {
    const credentials = await liveAccountCredentials(VENUE, sim.url, `extended-funding:${label}`);
    const exchange = await createCcxtExchange(VENUE, credentials, {
      endpoint: `${sim.url}/dialects/extended`,
    });
    const wallet = harnessWallet(`extended-funding:${label}`).address;
    await openLiveAccount(VENUE, exchange, control, wallet);
    const client = new CcxtVenueClient({ venue: VENUE, exchange });
    await client.connect();
    return new Trader(wallet, credentials.apiKey!, exchange, client);
  }

  /** A long (buy) or short (sell) of `size` in `symbol`: its post-only at the top, taken by another. */
  async open(side: 'buy' | 'sell', size: string, symbol = MARKET): Promise<void> {
    const market = sim.world().venue(VENUE).market(symbol);
    const top = (side === 'buy' ? market.book.bids : market.book.asks).top(1)[0]!.priceTicks;
    const price = market.price.format(top + (side === 'buy' ? 1 : -1));
    const ack = await this.client.placePostOnly({
      symbol,
      side,
      price,
      size,
      clientOrderId: `funding-${(this.seq += 1)}`,
    });
    expect(ack.order.status).toBe('open');
    const taker = side === 'buy' ? 'sell' : 'buy';
    expect((await control.trade(VENUE, symbol, taker, size, price)).filled).toBe(size);
  }

  async funding(query: string, apiKey: string | null = this.apiKey) {
    const response = await fetch(
      `${sim.url}/dialects/extended/api/v1/user/funding/history?${query}`,
      {
        headers: apiKey === null ? {} : { 'x-api-key': apiKey },
      },
    );
    const text = await response.text();
    return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as unknown) };
  }

  async payments(query = ''): Promise<FundingAnswer> {
    const answer = await this.funding(query);
    expect(answer.status).toBe(200);
    return answer.body as FundingAnswer;
  }

  async recorded(): Promise<RecordedPayment[]> {
    const response = await fetch(
      `${sim.url}/control/venues/${VENUE}/accounts/${this.wallet}/funding?since=0`,
    );
    return ((await response.json()) as { funding: RecordedPayment[] }).funding;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** Whole seconds in the past, one apart: the settlements' times, each after the last. */
let nextSettlementMs = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
function settle(rate: string, symbol = MARKET): number {
  nextSettlementMs += 1000;
  sim.world().venue(VENUE).settleFunding(symbol, nextSettlementMs, new Big(rate));
  return nextSettlementMs;
}

describe('Extended funding payments (GET /api/v1/user/funding/history)', () => {
  let trader: Trader;
  let first: number;
  let second: number;
  let third: number;

  beforeAll(async () => {
    trader = await Trader.open('long');
    await trader.open('buy', '0.5');
    await trader.open('sell', '0.01', 'BTC-USD');
    first = settle('0.0001');
    second = settle('-0.0002');
    third = settle('0.0003', 'BTC-USD');
  });

  afterAll(async () => {
    await trader.close();
  });

  it('lists the payments as the simulator recorded them, newest first by id, the fee signed as the collateral moved', async () => {
    const recorded = await trader.recorded();
    expect(recorded.map((payment) => payment.ts_ms)).toEqual([first, second, third]);
    const answer = await trader.payments();
    const ids = answer.data.map((payment) => payment.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(answer.pagination).toEqual({ cursor: ids[2], count: 3 });
    const positions = (await (
      await fetch(`${sim.url}/dialects/extended/api/v1/user/positions`, {
        headers: { 'x-api-key': trader.apiKey },
      })
    ).json()) as { data: Array<{ id: number; market: string; accountId: number }> };
    const positionOf = (market: string) => positions.data.find((p) => p.market === market)!;
    expect(answer.data).toEqual(
      [...recorded].reverse().map((payment, n) => ({
        id: ids[n],
        accountId: positionOf(payment.symbol).accountId,
        market: payment.symbol,
        positionId: positionOf(payment.symbol).id,
        side: new Big(payment.size).gt(0) ? 'LONG' : 'SHORT',
        size: new Big(payment.size).abs().toFixed(),
        value: new Big(payment.size).abs().times(payment.mark_price).toFixed(),
        markPrice: payment.mark_price,
        fundingFee: payment.amount,
        fundingRate: payment.rate,
        paidTime: payment.ts_ms,
      })),
    );
    const [btc, ethReceived, ethPaid] = answer.data;
    // A long pays at a positive rate and receives at a negative one; a short receives at a positive one.
    expect(new Big(ethPaid!.fundingFee).lt(0)).toBe(true);
    expect(new Big(ethReceived!.fundingFee).gt(0)).toBe(true);
    expect(btc).toMatchObject({ market: 'BTC-USD', side: 'SHORT' });
    expect(new Big(btc!.fundingFee).gt(0)).toBe(true);
  });

  it('filters by market, side and fromTime; startTime, which the docs do not name, filters nothing', async () => {
    const times = (answer: FundingAnswer) => answer.data.map((payment) => payment.paidTime);
    expect(times(await trader.payments(`market=${MARKET}`))).toEqual([second, first]);
    expect(times(await trader.payments(`market=${MARKET}&market=BTC-USD`))).toEqual([
      third,
      second,
      first,
    ]);
    expect(times(await trader.payments('side=SHORT'))).toEqual([third]);
    expect(times(await trader.payments('side=LONG'))).toEqual([second, first]);
    expect(times(await trader.payments(`fromTime=${second}`))).toEqual([third, second]);
    expect(times(await trader.payments(`startTime=${second}`))).toEqual([third, second, first]);
    const empty = await trader.payments(`fromTime=${third + 1}`);
    expect(empty).toEqual({ status: 'OK', data: [], pagination: { count: 0 } });
    const refused = await trader.funding('fromTime=yesterday');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 'ERROR', error: { code: 1133 } });
  });

  it('pages them: limit at a time, the cursor naming the last, the next page older than it', async () => {
    const all = (await trader.payments()).data;
    const first2 = await trader.payments('limit=2');
    expect(first2.data).toEqual(all.slice(0, 2));
    expect(first2.pagination).toEqual({ cursor: all[1]!.id, count: 2 });
    const rest = await trader.payments(`limit=2&cursor=${first2.pagination.cursor}`);
    expect(rest.data).toEqual(all.slice(2));
    expect(rest.pagination).toEqual({ cursor: all[2]!.id, count: 1 });
    const past = await trader.payments(`limit=2&cursor=${rest.pagination.cursor}`);
    expect(past).toEqual({ status: 'OK', data: [], pagination: { count: 0 } });
  });

  it("refuses a request without a known API key, and shows a key's own account only", async () => {
    expect((await trader.funding('', null)).status).toBe(401);
    expect((await trader.funding('', 'not-a-key')).status).toBe(401);
    const flat = await Trader.open('flat');
    try {
      expect((await flat.payments()).data).toEqual([]);
    } finally {
      await flat.close();
    }
  });

  it('weighs one request of the IP pool (E1), as every request of the venue', async () => {
    const admitted = async () =>
      (await control.dialectRateLimits(VENUE)).pools[0]!.keys.reduce(
        (sum, key) => sum + key.admitted_weight,
        0,
      );
    const before = await admitted();
    await trader.payments();
    // The read-out itself is not the venue's: only the funding read counted.
    expect((await admitted()) - before).toBe(1);
  });
});

describe('the live client (ccxt 4.5.84) reads the payments through Extended', () => {
  it('gives every payment since a time, every market, as the simulator recorded it', async () => {
    const trader = await Trader.open('live');
    try {
      await trader.open('buy', '0.3');
      await trader.open('sell', '0.01', 'BTC-USD');
      const before = settle('0.0002');
      const since = before + 1;
      const times = [settle('0.0001'), settle('-0.00015'), settle('0.0003', 'BTC-USD')];
      const read = await trader.client.fundingPayments(since);
      const recorded = (await trader.recorded()).filter((payment) => payment.ts_ms >= since);
      expect(recorded.map((payment) => payment.ts_ms)).toEqual(times);
      // The answer names no asset: the market's margin asset as the client names it (the
      // simulator's USD collateral is ccxt's USDC).
      const markets = await trader.client.markets();
      const marginOf = (symbol: string) =>
        markets.find((market) => market.entry.symbol === symbol)!.marginAsset;
      expect(read).toEqual(
        recorded.map((payment) => ({
          exchange: VENUE,
          symbol: payment.symbol,
          market: payment.symbol.split('-')[0],
          timeMs: payment.ts_ms,
          amount: payment.amount,
          asset: marginOf(payment.symbol),
          rate: payment.rate,
          size: payment.size,
        })),
      );
      // The long paid, then received; the short received.
      expect(read.map((payment) => new Big(payment.amount).gt(0))).toEqual([false, true, true]);
      expect((await trader.client.fundingPayments(before)).map((p) => p.timeMs)).toEqual([
        before,
        ...times,
      ]);
      // More than a page of the client's 1,000: it follows the cursor back past its time.
      for (let n = 0; n < 1_050; n += 1) {
        settle(n % 2 === 0 ? '0.0001' : '-0.0001');
      }
      const all = await trader.client.fundingPayments(since);
      const recordedAll = (await trader.recorded()).filter((p) => p.ts_ms >= since);
      expect(all).toHaveLength(1_053);
      expect(all.map((payment) => [payment.timeMs, payment.amount, payment.symbol])).toEqual(
        recordedAll.map((payment) => [payment.ts_ms, payment.amount, payment.symbol]),
      );
    } finally {
      await trader.close();
    }
  });
});
