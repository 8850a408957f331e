import Big from 'big.js';
import { CcxtVenueClient, createCcxtExchange } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import {
  harnessWallet,
  liveAccountCredentials,
  liveTestOptions,
  openLiveAccount,
} from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';
import { LighterKit, type Owner } from './lighter-test-kit';

// Lighter's funding payments, `GET /api/v1/positionFunding`, as its SDK
// documents them and ccxt 4.5.84 names them (`privateGetPositionFunding`):
// the auth token's account, `limit` (required), `market_id` (255: all),
// `side`, `cursor`; `change` signed as the collateral moved, `timestamp` in
// seconds. Checked against what the simulator recorded
// (`/control/venues/lighter/accounts/<wallet>/funding`); then read back by
// the live client (CcxtVenueClient over the unmodified ccxt), across pages.

const VENUE = 'lighter';
/** ETH is market 1 (price decimals 2, size decimals 4), BTC market 0. */
const ETH = { symbol: 'ETH', id: 1 };
const BTC = { symbol: 'BTC', id: 0 };

interface FundingAnswer {
  code: number;
  position_fundings: Array<{
    timestamp: number;
    market_id: number;
    funding_id: number;
    change: string;
    rate: string;
    position_size: string;
    position_side: string;
  }>;
  next_cursor?: string;
}

interface RecordedPayment {
  symbol: string;
  ts_ms: number;
  rate: string;
  size: string;
  amount: string;
}

let sim: RunningVenueSim;
let control: SimControl;
const kit = new LighterKit(
  () => sim.url,
  () => control,
);

beforeAll(async () => {
  sim = await startVenueSim({ seed: 67, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await sim.stop();
});

/** The auth token the signer makes for the owner's API key (ccxt's `Authorization` header). */
const tokenOf = (owner: Owner): string =>
  kit.signer()['CreateAuthToken']!(
    Math.floor(Date.now() / 1000) + 600,
    owner.apiKeyIndex,
    owner.index,
  )['authToken'] as string;

async function funding(
  owner: Owner,
  query: string,
  auth: { header?: string; param?: string } = { header: tokenOf(owner) },
) {
  const params = `account_index=${owner.index}&${query}${auth.param ? `&auth=${auth.param}` : ''}`;
  const response = await fetch(`${kit.endpoint()}/api/v1/positionFunding?${params}`, {
    headers: auth.header ? { authorization: auth.header } : {},
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function payments(owner: Owner, query: string): Promise<FundingAnswer> {
  const answer = await funding(owner, query);
  expect(answer.status).toBe(200);
  return answer.body as FundingAnswer;
}

async function recorded(owner: Pick<Owner, 'wallet'>): Promise<RecordedPayment[]> {
  const response = await fetch(
    `${sim.url}/control/venues/${VENUE}/accounts/${owner.wallet}/funding?since=0`,
  );
  return ((await response.json()) as { funding: RecordedPayment[] }).funding;
}

/** A long (bid) or short (ask) of ETH in base units of 10⁻⁴: a post-only at the top, taken by another. */
async function open(owner: Owner, isAsk: 0 | 1, baseAmount: number): Promise<void> {
  const price = isAsk ? (await kit.best('asks')) - 1 : (await kit.best('bids')) + 1;
  const order = kit.order(owner, {
    nonce: Date.now(),
    client: isAsk + 1,
    price,
    baseAmount,
    isAsk,
  });
  expect((await kit.sendTx(order)).body['code']).toBe(200);
  const size = new Big(baseAmount).div(10_000).toFixed();
  const taker = isAsk ? 'buy' : 'sell';
  const filled = await control.trade(
    VENUE,
    ETH.symbol,
    taker,
    size,
    new Big(price).div(100).toFixed(),
  );
  expect(filled.filled).toBe(size);
}

/** Whole seconds in the past, one apart: the settlements' times, each after the last. */
let nextSettlementMs = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
function settle(rate: string, symbol = ETH.symbol): number {
  nextSettlementMs += 1000;
  sim.world().venue(VENUE).settleFunding(symbol, nextSettlementMs, new Big(rate));
  return nextSettlementMs;
}

describe('Lighter funding payments (GET /api/v1/positionFunding)', () => {
  let owner: Owner;
  let times: number[];

  beforeAll(async () => {
    owner = await kit.owner('funding-long');
    await open(owner, 0, 5_000);
    times = [settle('0.0001'), settle('-0.0002'), settle('0.00005')];
  });

  it("lists the account's payments as the simulator recorded them, newest first, change signed as the collateral moved", async () => {
    const venue = await recorded(owner);
    expect(venue.map((payment) => payment.ts_ms)).toEqual(times);
    const answer = await payments(owner, 'limit=100');
    expect(answer.code).toBe(200);
    expect(answer.next_cursor).toBeUndefined();
    const ids = answer.position_fundings.map((payment) => payment.funding_id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(answer.position_fundings).toEqual(
      [...venue].reverse().map((payment, n) => ({
        timestamp: payment.ts_ms / 1000,
        market_id: ETH.id,
        funding_id: ids[n],
        change: payment.amount,
        rate: payment.rate,
        position_size: '0.5',
        position_side: 'long',
      })),
    );
    const [, received, paid] = answer.position_fundings;
    // A long pays at a positive rate and receives at a negative one.
    expect(new Big(paid!.change).lt(0)).toBe(true);
    expect(new Big(received!.change).gt(0)).toBe(true);
  });

  it('pages them: limit at a time, next_cursor while more remain, every payment once', async () => {
    const all = (await payments(owner, 'limit=100')).position_fundings;
    const first = await payments(owner, 'limit=2');
    expect(first.position_fundings).toEqual(all.slice(0, 2));
    expect(first.next_cursor).toBe(String(all[1]!.funding_id));
    const rest = await payments(owner, `limit=2&cursor=${first.next_cursor}`);
    expect(rest.position_fundings).toEqual(all.slice(2));
    expect(rest.next_cursor).toBeUndefined();
    for (const limit of ['', 'limit=0', 'limit=101', 'limit=many']) {
      expect((await funding(owner, limit)).body).toMatchObject({ code: 20001 });
    }
    expect((await funding(owner, 'limit=2&cursor=later')).status).toBe(400);
  });

  it('filters by market_id (255: every market) and side', async () => {
    const short = await kit.owner('funding-short');
    await open(short, 1, 2_000);
    const at = settle('0.0001');
    const btc = settle('0.0001', BTC.symbol);
    const all = (await payments(short, 'limit=100&market_id=255')).position_fundings;
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      timestamp: at / 1000,
      market_id: ETH.id,
      position_size: '0.2',
      position_side: 'short',
    });
    // A short receives at a positive rate.
    expect(new Big(all[0]!.change).gt(0)).toBe(true);
    expect(all[0]!.change).toBe((await recorded(short))[0]!.amount);
    expect((await payments(short, `limit=100&market_id=${ETH.id}`)).position_fundings).toEqual(all);
    expect((await payments(short, `limit=100&market_id=${BTC.id}`)).position_fundings).toEqual([]);
    expect((await payments(short, 'limit=100&side=short')).position_fundings).toEqual(all);
    expect((await payments(short, 'limit=100&side=long')).position_fundings).toEqual([]);
    expect((await payments(short, 'limit=100&side=all')).position_fundings).toEqual(all);
    expect((await funding(short, 'limit=100&market_id=77')).body).toMatchObject({ code: 21602 });
    expect((await funding(short, 'limit=100&side=up')).body).toMatchObject({ code: 20001 });
    // The BTC settlement found no BTC position: nobody paid.
    expect((await recorded(short)).map((payment) => payment.ts_ms)).not.toContain(btc);
  });

  it('takes the token in the header or the auth parameter; refuses none, a bad one, or one of another account', async () => {
    const byParam = await funding(owner, 'limit=100', { param: tokenOf(owner) });
    expect(byParam.status).toBe(200);
    expect((byParam.body as FundingAnswer).position_fundings).toEqual(
      (await payments(owner, 'limit=100')).position_fundings,
    );
    expect(await funding(owner, 'limit=100', {})).toMatchObject({
      status: 401,
      body: { code: 20013 },
    });
    expect((await funding(owner, 'limit=100', { header: 'not-a-token' })).status).toBe(401);
    const other = await kit.owner('funding-other');
    expect(await funding(owner, 'limit=100', { header: tokenOf(other) })).toMatchObject({
      status: 403,
      body: { code: 20013 },
    });
  });

  it('weighs 300 of the account\'s L1 (an "Other" endpoint)', async () => {
    const admitted = async () =>
      (await control.dialectRateLimits(VENUE)).pools
        .find((pool) => pool.id === 'L1')!
        .keys.find((key) => key.key === owner.wallet)?.admitted_weight ?? 0;
    const before = await admitted();
    await payments(owner, 'limit=1');
    expect((await admitted()) - before).toBe(300);
  });
});

describe('the live client (ccxt 4.5.84) reads the payments through Lighter', () => {
  it('gives every payment since a time, every market, page after page, as the simulator recorded it', async () => {
    const label = 'lighter-funding:live';
    const exchange = await createCcxtExchange(
      VENUE,
      await liveAccountCredentials(VENUE, sim.url, label),
      { endpoint: kit.endpoint(), ...liveTestOptions(VENUE) },
    );
    const wallet = harnessWallet(label).address;
    await openLiveAccount(VENUE, exchange, control, wallet);
    const client = new CcxtVenueClient({ venue: VENUE, exchange });
    await client.connect();
    try {
      let seq = 0;
      const openOn = async (symbol: string, side: 'buy' | 'sell', size: string) => {
        const market = sim.world().venue(VENUE).market(symbol);
        const book = side === 'buy' ? market.book.bids : market.book.asks;
        const price = market.price.format(book.top(1)[0]!.priceTicks + (side === 'buy' ? 1 : -1));
        const clientOrderId = `${'ab'.repeat(15)}${String((seq += 1)).padStart(2, '0')}`;
        const ack = await client.placePostOnly({ symbol, side, price, size, clientOrderId });
        expect(ack.order.status).toBe('open');
        const taker = side === 'buy' ? 'sell' : 'buy';
        expect((await control.trade(VENUE, symbol, taker, size, price)).filled).toBe(size);
      };
      await openOn(ETH.symbol, 'buy', '0.3');
      await openOn(BTC.symbol, 'sell', '0.01');
      const before = settle('0.0002');
      const since = before + 1;
      const times = [settle('0.0001'), settle('-0.00015'), settle('0.0003', BTC.symbol)];
      const markets = await client.markets();
      const marginOf = (symbol: string) =>
        markets.find((market) => market.entry.symbol === symbol)!.marginAsset;
      const expected = async (from: number) =>
        (await recorded({ wallet }))
          .filter((payment) => payment.ts_ms >= from)
          .map((payment) => ({
            exchange: VENUE,
            symbol: payment.symbol,
            market: payment.symbol,
            timeMs: payment.ts_ms,
            amount: payment.amount,
            asset: marginOf(payment.symbol),
            rate: payment.rate,
            size: payment.size,
          }));
      const read = await client.fundingPayments(since);
      expect(read.map((payment) => payment.timeMs)).toEqual(times);
      expect(read).toEqual(await expected(since));
      // The long paid, then received; the short received.
      expect(read.map((payment) => new Big(payment.amount).gt(0))).toEqual([false, true, true]);
      // More than a page of 100: the client follows next_cursor back past its time.
      for (let n = 0; n < 120; n += 1) {
        settle(n % 2 === 0 ? '0.0001' : '-0.0001');
      }
      const all = await client.fundingPayments(before);
      expect(all).toHaveLength(124);
      expect(all).toEqual(await expected(before));
    } finally {
      await client.close();
    }
  });
});
