import { SimControl } from '@sts/app-venue-sim';
import { WorkerHarness } from '@sts/app-worker-testing';
import { sleep } from '@sts/platform';

jest.setTimeout(120_000);

const ACCOUNT_LIMIT = 8;

/**
 * The rate budgets on the live path: Paradex through ccxt against its
 * dialect, where a placement is answered NEW and a cancel 204 and the client
 * reads the order until the venue acted on it. Those reads are requests of
 * the account too: two trades re-quoting on a fast book must still never
 * have the venue see more than the account's limit, nor answer 429.
 */
describe('rate budgets hold the account limit on a live venue that queues orders (paradex)', () => {
  const harness = new WorkerHarness();
  let sim: SimControl;

  beforeAll(async () => {
    await harness.start({
      liveDialects: ['paradex', 'hyperliquid'],
      env: {
        VENUE_PARADEX_MAKER_CAP: '2',
        VENUE_PARADEX_RATE_LIMIT_PER_S: String(ACCOUNT_LIMIT),
        VENUE_PARADEX_MIN_TRADE_BUDGET: '2',
      },
    });
    sim = new SimControl(harness.gateway.venueSim!.url);
    await sim.setRateLimit('paradex', ACCOUNT_LIMIT);
  });
  afterAll(() => harness.stop());

  it('two trades on one account never exceed its limit and never get a 429', async () => {
    const trader = await harness.liveTrader(['paradex', 'hyperliquid']);
    const trades: string[] = [];
    for (const market of ['BTC', 'ETH']) {
      trades.push(
        await harness.createTrade(trader, {
          market,
          long_exchange: 'paradex',
          short_exchange: 'hyperliquid',
          maker_leg: 'long',
          target_spread: '-100000',
          target_size: { BTC: '0.01', ETH: '1' }[market],
        }),
      );
    }
    for (const tradeId of trades) {
      await harness.waitForStatus(trader, tradeId, 'active', 20_000);
    }
    // A fast book: Paradex's prices jump every 25 ms, so both trades want to re-quote far more
    // often than their shares of 4 requests a second allow.
    const started = Date.now();
    for (let jump = 0; Date.now() - started < 6_000; jump += 1) {
      await sim.jumpVenue('paradex', jump % 2 === 0 ? 4 : -4);
      await sleep(25);
    }
    const counts = await sim.requestCounts('paradex', trader.wallet);
    const window = counts.seconds.filter((second) => second.second * 1000 >= started - 1000);
    const accepted = window.map((second) => second.accepted);
    expect(window.reduce((sum, second) => sum + second.rejected, 0)).toBe(0);
    expect(Math.max(...accepted)).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    // The trades were really re-quoting (else this proves nothing): the account was busy.
    expect(Math.max(...accepted)).toBeGreaterThanOrEqual(ACCOUNT_LIMIT / 2);
    expect(accepted.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(ACCOUNT_LIMIT + 2);
    // Reads that waited for a token never failed a trade: each still runs or has filled.
    for (const tradeId of trades) {
      expect(['active', 'completed']).toContain((await harness.trade(trader, tradeId)).status);
    }
  });
});
