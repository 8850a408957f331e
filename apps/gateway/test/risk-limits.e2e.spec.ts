import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import { Client } from 'pg';
import { SimControl } from '@sts/app-venue-sim';
import { loadVenueRegistry, sleep } from '@sts/platform';
import { GatewayHarness, type HttpResult } from './gateway-harness';

type Trader = Awaited<ReturnType<GatewayHarness['trader']>>;

/**
 * Pre-trade risk limits (issue 35), through the HTTP API and the operator
 * tool: each limit at its value accepted and one step past refused with 409
 * risk_limit_exceeded (nothing stored), amendments that grow a trade past a
 * limit refused, the default and a user's override, GET /api/v1/limits, a
 * missing mid refused, and 20 concurrent creates of one user never past an
 * open-notional limit. Trades stay pending (no worker runs): pending is live.
 */
describe('risk limits (issue 35)', () => {
  const gateway = new GatewayHarness();

  beforeAll(() =>
    gateway.start({
      venues: true,
      budget: true,
      env: {
        // Room for many live trades per wallet and account: the limits under test are the only brake.
        VENUE_HYPERLIQUID_MAKER_CAP: '100',
        VENUE_HYPERLIQUID_RATE_LIMIT_PER_S: '100000',
        VENUE_HYPERLIQUID_MIN_TRADE_BUDGET: '1',
        VENUE_PARADEX_RATE_LIMIT_PER_S: '100000',
        VENUE_PARADEX_MIN_TRADE_BUDGET: '1',
        GATEWAY_CREATE_GROUPS_IN_FLIGHT: '4',
      },
    }),
  );
  afterAll(() => gateway.stop());

  const limits = (...argv: string[]) => gateway.ops('limits', ...argv);
  const create = (
    trader: Trader,
    overrides: Record<string, unknown> = {},
    wallet = trader.wallet,
  ) =>
    gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(wallet, overrides),
    });
  /** A notional trade (its target is its USD notional, whatever the mid). */
  const usd = (amount: string, extra: Record<string, unknown> = {}) => ({
    size_type: 'notional',
    target_size: amount,
    ...extra,
  });
  const amend = (trader: Trader, tradeId: string, body: Record<string, unknown>) =>
    gateway.request('PATCH', `/api/v1/trades/${tradeId}`, { headers: trader.headers, body });
  const cancel = (trader: Trader, tradeId: string) =>
    gateway.request('DELETE', `/api/v1/trades/${tradeId}`, { headers: trader.headers });
  const readLimits = (trader: Trader) =>
    gateway.request('GET', '/api/v1/limits', { headers: trader.headers });
  const tradesOf = (trader: Trader) =>
    gateway.query<{ id: string; target_size: string; size_type: string; max_slippage: string }>(
      `SELECT id, target_size::text, size_type, max_slippage::text FROM trades WHERE user_id = $1 ORDER BY created_at`,
      [trader.userId],
    );
  const refusedWith = (
    answer: HttpResult,
    error: string,
    limit: string,
    value: string,
    wouldBe: string,
  ) =>
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 409,
      body: { error, code: 'risk_limit_exceeded', limit, limit_value: value, would_be: wouldBe },
    });

  /** The venues' mid of BTC on hyperliquid and paradex as the simulator's books show it. */
  const btcMid = async (): Promise<Big> => {
    const mid = async (venue: string, symbol: string): Promise<Big> => {
      const response = await fetch(
        `${gateway.venueSim!.url}/venues/${venue}/book/${symbol}?depth=1`,
      );
      const book = (await response.json()) as { bids: string[][]; asks: string[][] };
      return new Big(book.bids[0][0]).plus(book.asks[0][0]).div(2);
    };
    return (await mid('hyperliquid', 'BTC')).plus(await mid('paradex', 'BTC-USD-PERP')).div(2);
  };

  it('max_trade_notional: at the limit accepted, one step past refused and nothing stored; a raising amend refused', async () => {
    const trader = await gateway.trader();
    await limits('set', '--user', trader.userId, '--max-trade-notional', '1000');

    const atLimit = await create(trader, usd('1000'));
    expect(atLimit.status).toBe(202);
    const past = await create(trader, usd('1000.01'));
    refusedWith(
      past,
      "max_trade_notional 1000 USD: this trade would make the trade's notional 1000.01 USD",
      'max_trade_notional',
      '1000',
      '1000.01',
    );
    expect(await tradesOf(trader)).toHaveLength(1);

    const tradeId = atLimit.body.trade_id as string;
    refusedWith(
      await amend(trader, tradeId, { target_size: '1000.01' }),
      "max_trade_notional 1000 USD: this amendment would make the trade's notional 1000.01 USD",
      'max_trade_notional',
      '1000',
      '1000.01',
    );
    // A size_type change that grows it: 1 BTC is far more than 1000 USD.
    const toBase = await amend(trader, tradeId, { size_type: 'base', target_size: '1' });
    expect(toBase).toMatchObject({
      status: 409,
      body: { code: 'risk_limit_exceeded', limit: 'max_trade_notional' },
    });
    expect(await tradesOf(trader)).toEqual([
      expect.objectContaining({ target_size: '1000', size_type: 'notional' }),
    ]);
    // Lowering is always allowed.
    expect((await amend(trader, tradeId, { target_size: '900' })).status).toBe(202);
    expect((await tradesOf(trader))[0].target_size).toBe('900');
  });

  it('values a base trade at the venues’ mid: target_size × the mean of both venues’ mids', async () => {
    const trader = await gateway.trader();
    const notional = new Big('0.01').times(await btcMid());
    await limits('set', '--user', trader.userId, '--max-trade-notional', notional.toFixed());

    expect((await create(trader, { target_size: '0.01' })).status).toBe(202);
    const past = await create(trader, { target_size: '0.011' });
    expect(past.body).toMatchObject({
      code: 'risk_limit_exceeded',
      limit: 'max_trade_notional',
      would_be: new Big('0.011').times(await btcMid()).toFixed(),
    });
    const view = await readLimits(trader);
    expect(view.body.usage).toEqual({
      open_notional: notional.toFixed(),
      open_notional_by_market: { BTC: notional.toFixed() },
      live_trades: 1,
    });
  });

  it('max_open_notional from the default; a user’s own limit wins over it; GET /limits says which', async () => {
    const [plain, own] = [await gateway.trader(), await gateway.trader()];
    await limits('set', '--default', '--max-open-notional', '3000');
    try {
      await limits('set', '--user', own.userId, '--max-open-notional', '5000');
      expect((await create(plain, usd('1000'))).status).toBe(202);
      const second = await create(plain, usd('2000'));
      expect(second.status).toBe(202);
      refusedWith(
        await create(plain, usd('0.01')),
        'max_open_notional 3000 USD: this trade would make open notional 3000.01 USD',
        'max_open_notional',
        '3000',
        '3000.01',
      );
      refusedWith(
        await amend(plain, second.body.trade_id, { target_size: '2500' }),
        'max_open_notional 3000 USD: this amendment would make open notional 3500 USD',
        'max_open_notional',
        '3000',
        '3500',
      );
      // Only live trades count: a canceled one frees its share.
      await cancel(plain, second.body.trade_id);
      expect((await create(plain, usd('2000'))).status).toBe(202);

      expect((await create(own, usd('4000'))).status).toBe(202);
      expect((await create(own, usd('1000'))).status).toBe(202);
      expect((await create(own, usd('1'))).body).toMatchObject({
        limit: 'max_open_notional',
        limit_value: '5000',
      });

      const [plainView, ownView] = [await readLimits(plain), await readLimits(own)];
      expect(plainView.status).toBe(200);
      expect(plainView.body.limits.max_open_notional).toEqual({ value: '3000', source: 'default' });
      expect(ownView.body).toEqual({
        limits: {
          max_trade_notional: null,
          max_open_notional: { value: '5000', source: 'user' },
          max_open_notional_per_market: null,
          max_live_trades: null,
          max_slippage: null,
        },
        usage: { open_notional: '5000', open_notional_by_market: { BTC: '5000' }, live_trades: 2 },
        valued_at: expect.any(String),
      });
    } finally {
      await limits('clear', '--default');
    }
    // Cleared: no limit from the default any more.
    expect((await readLimits(plain)).body.limits.max_open_notional).toBeNull();
    expect((await create(plain, usd('10000'))).status).toBe(202);
  });

  it('max_open_notional_per_market counts one canonical market', async () => {
    const trader = await gateway.trader();
    await limits('set', '--user', trader.userId, '--max-open-notional-per-market', '2000');
    expect((await create(trader, usd('1500'))).status).toBe(202);
    expect((await create(trader, usd('500'))).status).toBe(202);
    refusedWith(
      await create(trader, usd('1')),
      'max_open_notional_per_market 2000 USD: this trade would make open notional on BTC 2001 USD',
      'max_open_notional_per_market',
      '2000',
      '2001',
    );
    expect((await create(trader, usd('2000', { market: 'ETH' }))).status).toBe(202);
    expect((await readLimits(trader)).body.usage.open_notional_by_market).toEqual({
      BTC: '2000',
      ETH: '2000',
    });
  });

  it('max_live_trades: the limit’s count accepted, one more refused, a cancel frees a place', async () => {
    const trader = await gateway.trader();
    await limits('set', '--user', trader.userId, '--max-live-trades', '2');
    const first = await create(trader);
    expect(first.status).toBe(202);
    expect((await create(trader)).status).toBe(202);
    refusedWith(
      await create(trader),
      'max_live_trades 2: this trade would make 3 live trades',
      'max_live_trades',
      '2',
      '3',
    );
    await cancel(trader, first.body.trade_id);
    expect((await create(trader)).status).toBe(202);
    expect(await tradesOf(trader)).toHaveLength(3);
  });

  it('max_slippage: the limit accepted, above refused on create and on amend', async () => {
    const trader = await gateway.trader();
    await limits('set', '--user', trader.userId, '--max-slippage', '0.005');
    const atLimit = await create(trader, { max_slippage: '0.005' });
    expect(atLimit.status).toBe(202);
    refusedWith(
      await create(trader, { max_slippage: '0.0051' }),
      'max_slippage 0.005: this trade asks for max_slippage 0.0051',
      'max_slippage',
      '0.005',
      '0.0051',
    );
    refusedWith(
      await amend(trader, atLimit.body.trade_id, { max_slippage: '0.006' }),
      'max_slippage 0.005: this amendment asks for max_slippage 0.006',
      'max_slippage',
      '0.005',
      '0.006',
    );
    expect((await tradesOf(trader))[0].max_slippage).toBe('0.005');
    expect((await amend(trader, atLimit.body.trade_id, { max_slippage: '0.004' })).status).toBe(
      202,
    );
  });

  it('takes a limit set by the operator on the very next request, and a cleared one likewise', async () => {
    const trader = await gateway.trader();
    expect((await create(trader, usd('100'))).status).toBe(202);
    await limits('set', '--user', trader.userId, '--max-live-trades', '1');
    expect((await create(trader, usd('100'))).body).toMatchObject({ limit: 'max_live_trades' });
    await limits('clear', '--user', trader.userId, '--max-live-trades');
    expect((await create(trader, usd('100'))).status).toBe(202);
  });

  it('GET /api/v1/limits needs account:read and shows no limits for a user without any', async () => {
    const reader = await gateway.trader(['hyperliquid', 'paradex'], 'trades:read');
    expect((await readLimits(reader)).body).toMatchObject({ code: 'insufficient_scope' });
    const trader = await gateway.trader();
    expect((await readLimits(trader)).body).toMatchObject({
      limits: { max_trade_notional: null, max_live_trades: null },
      usage: { open_notional: '0', open_notional_by_market: {}, live_trades: 0 },
    });
  });

  it('refuses with 503 naming the venue, and stores nothing, when the mid cannot be read', async () => {
    const trader = await gateway.trader();
    await limits('set', '--user', trader.userId, '--max-trade-notional', '1000000');
    const sim = new SimControl(gateway.venueSim!.url);
    // The gateway's book stream of paradex is cut, its reconnects refused for 3 s.
    await sim.dropSockets('paradex', 3_000);
    let spread: HttpResult | undefined;
    for (let attempt = 0; attempt < 20 && spread?.status !== 503; attempt += 1) {
      spread = await gateway.request(
        'GET',
        '/api/v1/markets/BTC/spread?long_exchange=hyperliquid&short_exchange=paradex',
      );
      await sleep(50);
    }
    expect(spread?.status).toBe(503);
    const refused = await create(trader);
    expect(refused).toMatchObject({
      status: 503,
      body: { code: 'service_unavailable', reason: 'paradex' },
    });
    expect(await tradesOf(trader)).toHaveLength(0);
    let accepted: HttpResult | undefined;
    for (let attempt = 0; attempt < 40 && accepted?.status !== 202; attempt += 1) {
      await sleep(250);
      accepted = await create(trader);
    }
    expect(accepted?.status).toBe(202);
  });

  /** More wallets of the trader, with paper credentials: each create on its own holds its own cap lock. */
  const moreWallets = async (trader: Trader, count: number): Promise<string[]> => {
    const wallets = [trader.wallet];
    for (let i = 0; i < count; i += 1) {
      const wallet = `0x${randomBytes(20).toString('hex')}`;
      await gateway.ops('wallets', 'link', '--user', trader.userId, '--wallet', wallet);
      for (const exchange of ['hyperliquid', 'paradex']) {
        await gateway.operator.paperCredential(trader.userId, exchange, wallet);
      }
      wallets.push(wallet);
    }
    return wallets;
  };

  const waitingAdvisoryLocks = async (): Promise<number> =>
    (
      await gateway.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
      )
    )[0]!.n;

  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (await check()) {
        return;
      }
      await sleep(20);
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  it('counts a create that was in flight, unchecked, when the limit was set', async () => {
    const trader = await gateway.trader();
    const [first, second] = (await moreWallets(trader, 1)) as [string, string];
    const capGroup = loadVenueRegistry(gateway.env).hyperliquid.capGroup;
    // Another session holds the first wallet's cap lock: its create waits there, past its risk check.
    const elsewhere = new Client({ connectionString: gateway.env['DATABASE_URL'] });
    await elsewhere.connect();
    try {
      const capLock = `maker-cap:${first}:${capGroup}`;
      await elsewhere.query('SELECT pg_advisory_lock(hashtext($1))', [capLock]);
      const unchecked = create(trader, usd('1000'), first);
      await until(async () => (await waitingAdvisoryLocks()) === 1, 'the create on the cap lock');
      await limits('set', '--user', trader.userId, '--max-open-notional', '1000');
      const checked = create(trader, usd('1000'), second);
      await until(async () => (await waitingAdvisoryLocks()) === 2, 'the checked create to wait');
      await elsewhere.query('SELECT pg_advisory_unlock(hashtext($1))', [capLock]);
      expect((await unchecked).status).toBe(202);
      expect((await checked).body).toMatchObject({
        code: 'risk_limit_exceeded',
        limit: 'max_open_notional',
        would_be: '2000',
      });
    } finally {
      await elsewhere.end();
    }
  });

  it('20 concurrent creates of one user never pass max_open_notional', async () => {
    const trader = await gateway.trader();
    // Four wallets: creates on different wallets hold different cap locks and run side by side.
    const wallets = await moreWallets(trader, 3);
    await limits('set', '--user', trader.userId, '--max-open-notional', '5000');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        create(trader, usd('1000'), wallets[i % wallets.length]),
      ),
    );
    const statuses = answers.map((answer) => `${answer.status} ${answer.body.code ?? ''}`.trim());
    expect(statuses.filter((status) => status === '202')).toHaveLength(5);
    expect(statuses.filter((status) => status === '409 risk_limit_exceeded')).toHaveLength(15);
    const [live] = await gateway.query<{ n: number; total: string }>(
      `SELECT count(*)::int AS n, sum(target_size)::text AS total FROM trades WHERE user_id = $1`,
      [trader.userId],
    );
    expect(live).toEqual({ n: 5, total: '5000' });
  });
});
