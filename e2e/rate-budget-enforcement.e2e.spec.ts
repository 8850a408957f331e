import { SimControl } from '@sts/app-venue-sim';
import { WorkerHarness, type Trader } from '@sts/app-worker-testing';
import { sleep } from '@sts/platform';

jest.setTimeout(120_000);

const ACCOUNT_LIMIT = 8;

/** A harness whose `venue` account allows ACCOUNT_LIMIT requests a second, on the venue and in the budgets. */
function limitedVenue(
  venue: string,
  options: { makerCap: number; liveDialects?: string[]; env?: Record<string, string> },
): { harness: WorkerHarness; sim: () => SimControl } {
  const harness = new WorkerHarness();
  let sim: SimControl;
  const prefix = `VENUE_${venue.toUpperCase()}`;
  beforeAll(async () => {
    await harness.start({
      ...(options.liveDialects ? { liveDialects: options.liveDialects } : {}),
      env: {
        [`${prefix}_MAKER_CAP`]: String(options.makerCap),
        [`${prefix}_RATE_LIMIT_PER_S`]: String(ACCOUNT_LIMIT),
        [`${prefix}_MIN_TRADE_BUDGET`]: '2',
        ...options.env,
      },
    });
    sim = new SimControl(harness.gateway.venueSim!.url);
    await sim.setRateLimit(venue, ACCOUNT_LIMIT);
    if (options.liveDialects) {
      // The dialect holds the venue's published limits; its pool of every
      // private request (P6) is squeezed to the account's limit a second, so a
      // request sent past the budget is refused as the venue refuses it.
      await sim.setDialectRateLimits(venue, {
        pools: { P6: { capacity: ACCOUNT_LIMIT, windowMs: 1_000 } },
      });
    }
  });
  afterAll(() => harness.stop());
  return { harness, sim: () => sim };
}

/**
 * What the simulator counted of the account since `started`: never over the
 * limit in any second and never a 429, and busy enough to prove it (the
 * busiest second used half the account or more). The trades still run or
 * have filled: waiting for tokens never failed one.
 */
async function expectLimitHeld(
  harness: WorkerHarness,
  sim: SimControl,
  venue: string,
  trader: Trader,
  trades: string[],
  started: number,
): Promise<void> {
  const counts = await sim.requestCounts(venue, trader.wallet);
  const window = counts.seconds.filter((second) => second.second * 1000 >= started - 1000);
  const accepted = window.map((second) => second.accepted);
  expect(window.reduce((sum, second) => sum + second.rejected, 0)).toBe(0);
  expect(Math.max(...accepted)).toBeLessThanOrEqual(ACCOUNT_LIMIT);
  expect(Math.max(...accepted)).toBeGreaterThanOrEqual(ACCOUNT_LIMIT / 2);
  expect(accepted.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(ACCOUNT_LIMIT + 2);
  for (const tradeId of trades) {
    expect(['active', 'completed']).toContain((await harness.trade(trader, tradeId)).status);
  }
}

/**
 * Issue 6 end to end: four trades quote on one venue account while the book
 * moves fast, so each wants to re-quote far more often than the account
 * allows. The workers spend their shares from token buckets; the simulator,
 * counting every request of the account per second, never sees more than the
 * limit and never has to answer 429.
 */
describe('rate budgets hold the account limit on the venue', () => {
  const { harness, sim } = limitedVenue('hyperliquid', { makerCap: 4 });

  // Trades finish while the book runs (the jumps fill them), so shares grow mid-run: this is
  // what caught growth applied at once (a released share spent twice in one venue second).
  it('four trades on one account never exceed its limit and never get a 429', async () => {
    const trader = await harness.trader();
    const trades: string[] = [];
    for (const market of ['BTC', 'ETH', 'SOL', 'BTC']) {
      trades.push(
        await harness.createTrade(trader, {
          market,
          target_spread: '-100000',
          target_size: { BTC: '0.01', ETH: '1', SOL: '20' }[market],
        }),
      );
    }
    for (const tradeId of trades) {
      await harness.waitForStatus(trader, tradeId, 'active');
    }
    const budgets = await Promise.all(trades.map((tradeId) => harness.trade(trader, tradeId)));
    expect(budgets.map((trade) => trade.rate_budget)).toEqual([2, 2, 2, 2]);

    // A fast book: the maker venue's prices jump every 25 ms, so every trade wants to re-quote
    // about 40 times a second, far more than its share of 2 requests a second. For the first
    // 2 s the book only rises (the bids chase it and nothing fills, so the account is busy for
    // seconds whatever the fills do later); then it swings both ways and the trades fill.
    const started = Date.now();
    for (let jump = 0; Date.now() - started < 6_000; jump += 1) {
      const rising = Date.now() - started < 2_000;
      await sim().jumpVenue('hyperliquid', rising || jump % 2 === 0 ? 4 : -4);
      await sleep(25);
    }
    await expectLimitHeld(harness, sim(), 'hyperliquid', trader, trades, started);
  });
});

/**
 * The same on the live path: Paradex through ccxt against its dialect, where
 * a placement is answered NEW and a cancel 204 and the client reads the order
 * until the venue acted on it. Those reads are requests of the account too,
 * each paid from the trade's budget before it goes (unpaid, this sent 11-12
 * requests a second and met 19 refusals in 6 s). The judge is the dialect's
 * own count of the venue's published pools.
 */
describe('rate budgets hold the account limit on a live venue that queues orders (paradex)', () => {
  const { harness, sim } = limitedVenue('paradex', {
    makerCap: 2,
    liveDialects: ['paradex', 'hyperliquid'],
    // One request per order: batched, the two trades' re-quotes share requests whenever they
    // move together, so the account is pressed less and the busiest second proves nothing
    // (it weighed 3 of 8 in one clean-clone run). Batches under a tight budget are
    // live-order-batches.e2e.spec.ts's.
    env: { WORKER_ORDER_BATCH_MS: '-1' },
  });

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
    // Paradex's prices rise every 25 ms: both trades want to re-quote far more often than
    // their shares of 4 requests a second allow (3 of them to takes: one a second is kept
    // for the fills reads a trade sends on credit). The book only rises, so the bids chase
    // it and none fills: with swings, both trades often filled within seconds and left the
    // account idle (the busiest second weighed 3 of 8 in two clean-clone runs).
    const started = Date.now();
    while (Date.now() - started < 6_000) {
      await sim().jumpVenue('paradex', 4);
      await sleep(25);
    }
    await expectPublishedPoolHeld(harness, sim(), trader, trades);
  });
});

/**
 * What the Paradex dialect counted of its pools: nothing refused, and P6
 * (squeezed to the account's limit a second) never over it in any second,
 * yet busy enough to prove it. The trades still run or have filled.
 */
async function expectPublishedPoolHeld(
  harness: WorkerHarness,
  sim: SimControl,
  trader: Trader,
  trades: string[],
): Promise<void> {
  const { pools } = await sim.dialectRateLimits('paradex');
  const refused = pools.flatMap((pool) => pool.keys).reduce((sum, key) => sum + key.refused, 0);
  expect(refused).toBe(0);
  const p6 = pools.find((pool) => pool.id === 'P6')!;
  const busiest = Math.max(0, ...p6.keys.map((key) => key.max_window_weight));
  expect(busiest).toBeLessThanOrEqual(ACCOUNT_LIMIT);
  expect(busiest).toBeGreaterThanOrEqual(ACCOUNT_LIMIT / 2);
  for (const tradeId of trades) {
    expect(['active', 'completed']).toContain((await harness.trade(trader, tradeId)).status);
  }
}
