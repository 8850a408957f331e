import Big from 'big.js';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CcxtVenueClient, createCcxtExchange } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveAccountCredentials, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';

// Paradex's funding payments, `GET /v1/funding/payments`, as the venue
// documents them and ccxt 4.5.84's fetchFundingHistory asks for them: one
// market's payments of the bearer token's account, `start_at`/`end_at`,
// `page_size` and `cursor`; each with the venue's fields and `payment`
// signed as the account's USDC moved. Checked against what the simulator
// recorded (`/control/venues/paradex/accounts/<wallet>/funding`); then read
// back by the live client (CcxtVenueClient over the unmodified ccxt), every
// market the account held, across pages.

const VENUE = 'paradex';
const SYMBOL = 'ETH/USD:USDC';
const MARKET = 'ETH-USD-PERP';

interface ParadexCcxt {
  onboarding(): Promise<unknown>;
  authenticateRest(): Promise<string>;
  retrieveAccount(): Promise<{ address: string }>;
  createOrder(
    symbol: string,
    type: string,
    side: string,
    amount: number,
    price: number,
    params?: Record<string, unknown>,
  ): Promise<{ id?: string }>;
  close(): Promise<void>;
}

interface FundingAnswer {
  next: string | null;
  prev: string | null;
  results: Array<{
    account: string;
    created_at: number;
    fill_id: string;
    id: string;
    index: string;
    market: string;
    payment: string;
  }>;
}

interface RecordedPayment {
  id: string;
  symbol: string;
  asset: string;
  ts_ms: number;
  rate: string;
  size: string;
  mark_price: string;
  amount: string;
}

let sim: RunningVenueSim;
let control: SimControl;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 61, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await sim.stop();
});

/** A trader on the venue: ccxt to sign and place, its bearer token for the wire. */
class Trader {
  private constructor(
    readonly exchange: ParadexCcxt,
    readonly wallet: string,
    readonly address: string,
    private readonly token: string,
  ) {}

  static async open(label: string): Promise<Trader> {
    const privateKey = keccak256(toHex(`paradex-funding-spec:${label}`));
    const wallet = privateKeyToAccount(privateKey);
    const exchange = (await createCcxtExchange(
      VENUE,
      { privateKey, walletAddress: wallet.address },
      { endpoint: `${sim.url}/dialects/paradex` },
    )) as unknown as ParadexCcxt;
    await exchange.onboarding();
    await control.deposit(VENUE, wallet.address.toLowerCase(), '100000');
    const { address } = await exchange.retrieveAccount();
    return new Trader(
      exchange,
      wallet.address.toLowerCase(),
      address,
      await exchange.authenticateRest(),
    );
  }

  /** A long (buy) or short (sell) of `size` ETH: its post-only at the top, taken by another. */
  async open(side: 'buy' | 'sell', size: string): Promise<void> {
    const market = sim.world().venue(VENUE).market(MARKET);
    const top = (side === 'buy' ? market.book.bids : market.book.asks).top(1)[0]!.priceTicks;
    const price = market.price.format(top + (side === 'buy' ? 1 : -1));
    await this.exchange.createOrder(SYMBOL, 'limit', side, Number(size), Number(price), {
      postOnly: true,
    });
    const taker = side === 'buy' ? 'sell' : 'buy';
    expect((await control.trade(VENUE, MARKET, taker, size, price)).filled).toBe(size);
  }

  async funding(query: string, token = this.token): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${sim.url}/dialects/paradex/v1/funding/payments?${query}`, {
      headers: token === '' ? {} : { authorization: `Bearer ${token}` },
    });
    return { status: response.status, body: await response.json() };
  }

  async payments(query: string): Promise<FundingAnswer> {
    const answer = await this.funding(query);
    expect(answer.status).toBe(200);
    return answer.body as FundingAnswer;
  }

  async recorded(sinceMs = 0): Promise<RecordedPayment[]> {
    const response = await fetch(
      `${sim.url}/control/venues/${VENUE}/accounts/${this.wallet}/funding?since=${sinceMs}`,
    );
    return ((await response.json()) as { funding: RecordedPayment[] }).funding;
  }

  bearer(): string {
    return this.token;
  }
}

/** Whole seconds in the past, one apart: the settlements' times, each after the last. */
let nextSettlementMs = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
function settle(rate: string, symbol = MARKET): number {
  nextSettlementMs += 1000;
  sim.world().venue(VENUE).settleFunding(symbol, nextSettlementMs, new Big(rate));
  return nextSettlementMs;
}

describe('Paradex funding payments (GET /v1/funding/payments)', () => {
  let trader: Trader;
  let first: number;
  let second: number;

  beforeAll(async () => {
    trader = await Trader.open('long');
    await trader.open('buy', '0.5');
    first = settle('0.0001');
    second = settle('-0.0002');
  });

  it("lists the market's payments as the simulator recorded them, newest first, paid negative", async () => {
    const recorded = await trader.recorded();
    expect(recorded.map((payment) => payment.ts_ms)).toEqual([first, second]);
    const answer = await trader.payments(`market=${MARKET}`);
    expect(answer.next).toBeNull();
    expect(answer.prev).toBeNull();
    const [newest, oldest] = answer.results;
    // A long pays at a positive rate and receives at a negative one.
    expect(new Big(oldest!.payment).lt(0)).toBe(true);
    expect(new Big(newest!.payment).gt(0)).toBe(true);
    expect(answer.results).toEqual(
      [...recorded].reverse().map((payment) => ({
        account: trader.address,
        created_at: payment.ts_ms,
        fill_id: '',
        id: expect.stringMatching(/^\d+$/) as unknown as string,
        index: expect.any(String) as unknown as string,
        market: MARKET,
        payment: payment.amount,
      })),
    );
    expect(oldest!.payment).toBe(
      new Big('0.5').times(recorded[0]!.mark_price).times('0.0001').neg().round(8).toFixed(),
    );
    // Each payment is -size times the funding index's step since the one before.
    const step = new Big(newest!.index).minus(oldest!.index);
    expect(step.toFixed()).toBe(new Big(recorded[1]!.mark_price).times('-0.0002').toFixed());
    expect(new Set(answer.results.map((payment) => payment.id)).size).toBe(2);
  });

  it('filters by start_at and end_at (ms, both inclusive) and by market, which it requires', async () => {
    const late = await trader.payments(`market=${MARKET}&start_at=${second}`);
    expect(late.results.map((payment) => payment.created_at)).toEqual([second]);
    const early = await trader.payments(`market=${MARKET}&end_at=${first}`);
    expect(early.results.map((payment) => payment.created_at)).toEqual([first]);
    const none = await trader.payments(`market=${MARKET}&start_at=${second + 1}`);
    expect(none.results).toEqual([]);
    expect((await trader.payments('market=BTC-USD-PERP')).results).toEqual([]);
    const unnamed = await trader.funding('page_size=10');
    expect(unnamed.status).toBe(400);
    expect(unnamed.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    const badTime = await trader.funding(`market=${MARKET}&start_at=soon`);
    expect(badTime.status).toBe(400);
    expect(badTime.body).toMatchObject({ error: 'INVALID_REQUEST_PARAMETER' });
  });

  it('pages them: page_size at a time, next until the last page, every payment once', async () => {
    const times = [settle('0.0003'), settle('0.0004'), settle('-0.0001')];
    const all = (await trader.payments(`market=${MARKET}&page_size=100`)).results;
    expect(all.map((payment) => payment.created_at)).toEqual([first, second, ...times].reverse());
    const pages: FundingAnswer[] = [await trader.payments(`market=${MARKET}&page_size=2`)];
    while (pages.at(-1)!.next !== null) {
      const cursor = encodeURIComponent(pages.at(-1)!.next!);
      pages.push(await trader.payments(`market=${MARKET}&page_size=2&cursor=${cursor}`));
    }
    expect(pages.map((page) => page.results.length)).toEqual([2, 2, 1]);
    expect(pages[0]!.prev).toBeNull();
    expect(pages[1]!.prev).not.toBeNull();
    expect(pages.flatMap((page) => page.results)).toEqual(all);
    expect((await trader.funding(`market=${MARKET}&page_size=0`)).status).toBe(400);
    expect((await trader.funding(`market=${MARKET}&cursor=not-a-cursor`)).status).toBe(400);
  });

  it("refuses a request without a valid bearer token, and shows a token's own account only", async () => {
    const missing = await trader.funding(`market=${MARKET}`, '');
    expect(missing.status).toBe(401);
    const forged = await trader.funding(`market=${MARKET}`, `${trader.bearer()}x`);
    expect(forged.status).toBe(401);
    const other = await Trader.open('flat');
    expect((await other.payments(`market=${MARKET}`)).results).toEqual([]);
    const short = await Trader.open('short');
    await short.open('sell', '0.2');
    const at = settle('0.0001');
    const received = (await short.payments(`market=${MARKET}`)).results;
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ account: short.address, created_at: at });
    // A short receives at a positive rate.
    expect(new Big(received[0]!.payment).gt(0)).toBe(true);
    expect(received[0]!.payment).toBe((await short.recorded())[0]!.amount);
    await Promise.all([other.exchange.close(), short.exchange.close()]);
  });

  it("weighs one of the account's private GETs (P5) and one of the IP's private requests (P6)", async () => {
    const admitted = async (pool: string, key: string) =>
      (await control.dialectRateLimits(VENUE)).pools
        .find((spec) => spec.id === pool)!
        .keys.find((counts) => counts.key === key)?.admitted_weight ?? 0;
    const [p5, p6] = [await admitted('P5/1m', trader.wallet), await admitted('P6', 'ip:127.0.0.1')];
    await trader.payments(`market=${MARKET}`);
    expect(await admitted('P5/1m', trader.wallet)).toBe(p5 + 1);
    expect(await admitted('P6', 'ip:127.0.0.1')).toBe(p6 + 1);
  });

  afterAll(async () => {
    await trader.exchange.close();
  });
});

describe('the live client (ccxt 4.5.84) reads the payments through Paradex', () => {
  it('gives every payment since a time, every market the account held, as the simulator recorded it', async () => {
    const label = 'paradex-funding:live';
    const exchange = await createCcxtExchange(
      VENUE,
      await liveAccountCredentials(VENUE, sim.url, label),
      { endpoint: `${sim.url}/dialects/paradex` },
    );
    const wallet = harnessWallet(label).address;
    await openLiveAccount(VENUE, exchange, control, wallet);
    const client = new CcxtVenueClient({ venue: VENUE, exchange });
    await client.connect();
    try {
      let seq = 0;
      const open = async (symbol: string, side: 'buy' | 'sell', size: string) => {
        const market = sim.world().venue(VENUE).market(symbol);
        const book = side === 'buy' ? market.book.bids : market.book.asks;
        const price = market.price.format(book.top(1)[0]!.priceTicks + (side === 'buy' ? 1 : -1));
        const clientOrderId = `live-funding-${(seq += 1)}`;
        const ack = await client.placePostOnly({ symbol, side, price, size, clientOrderId });
        expect(ack.order.status).toBe('open');
        const taker = side === 'buy' ? 'sell' : 'buy';
        expect((await control.trade(VENUE, symbol, taker, size, price)).filled).toBe(size);
      };
      await open(MARKET, 'buy', '0.3');
      await open('BTC-USD-PERP', 'sell', '0.01');
      const before = settle('0.0002');
      const since = before + 1;
      const times = [settle('0.0001'), settle('-0.00015'), settle('0.0003', 'BTC-USD-PERP')];
      const read = await client.fundingPayments(since);
      const recorded = (await fetchRecorded(wallet)).filter((payment) => payment.ts_ms >= since);
      expect(recorded.map((payment) => payment.ts_ms)).toEqual(times);
      expect(read).toEqual(
        recorded.map((payment) => ({
          exchange: VENUE,
          symbol: payment.symbol,
          market: payment.symbol.split('-')[0],
          timeMs: payment.ts_ms,
          amount: payment.amount,
          asset: payment.asset,
        })),
      );
      // The long paid, then received; the short received.
      expect(read.map((payment) => new Big(payment.amount).gt(0))).toEqual([false, true, true]);
      expect((await client.fundingPayments(before)).map((payment) => payment.timeMs)).toEqual([
        before,
        ...times,
      ]);
      // More than a page of the client's 1,000: it follows `next` to the last page.
      for (let n = 0; n < 1_050; n += 1) {
        settle(n % 2 === 0 ? '0.0001' : '-0.0001');
      }
      const all = await client.fundingPayments(since);
      const recordedAll = (await fetchRecorded(wallet)).filter((p) => p.ts_ms >= since);
      expect(all).toHaveLength(1_053);
      expect(all.map((payment) => [payment.timeMs, payment.amount, payment.symbol])).toEqual(
        recordedAll.map((payment) => [payment.ts_ms, payment.amount, payment.symbol]),
      );
    } finally {
      await client.close();
    }
  });
});

describe('a reader that never traded (the gateway’s), after the position closed', () => {
  it('reads a market it is told the account held, which it could not find alone', async () => {
    const label = 'paradex-funding:closed';
    const credentials = await liveAccountCredentials(VENUE, sim.url, label);
    const options = { endpoint: `${sim.url}/dialects/paradex` };
    const exchange = await createCcxtExchange(VENUE, credentials, options);
    const wallet = harnessWallet(label).address;
    await openLiveAccount(VENUE, exchange, control, wallet);
    const trading = new CcxtVenueClient({ venue: VENUE, exchange });
    await trading.connect();
    const market = sim.world().venue(VENUE).market(MARKET);
    const trade = async (side: 'buy' | 'sell', clientOrderId: string) => {
      const book = side === 'buy' ? market.book.bids : market.book.asks;
      const price = market.price.format(book.top(1)[0]!.priceTicks + (side === 'buy' ? 1 : -1));
      await trading.placePostOnly({ symbol: MARKET, side, price, size: '0.2', clientOrderId });
      const taker = side === 'buy' ? 'sell' : 'buy';
      expect((await control.trade(VENUE, MARKET, taker, '0.2', price)).filled).toBe('0.2');
    };
    await trade('buy', 'closed-open');
    const paidAt = settle('0.0001');
    await trade('sell', 'closed-close');
    await trading.close();

    const reader = new CcxtVenueClient({
      venue: VENUE,
      exchange: await createCcxtExchange(VENUE, credentials, options),
    });
    await reader.connectForReads();
    try {
      expect(await reader.fundingPayments(paidAt)).toEqual([]);
      const told = await reader.fundingPayments(paidAt, ['ETH']);
      expect(told.map((payment) => [payment.timeMs, payment.market])).toEqual([[paidAt, 'ETH']]);
    } finally {
      await reader.close();
    }
  });
});

async function fetchRecorded(wallet: string): Promise<RecordedPayment[]> {
  const response = await fetch(`${sim.url}/control/venues/${VENUE}/accounts/${wallet}/funding`);
  return ((await response.json()) as { funding: RecordedPayment[] }).funding;
}
