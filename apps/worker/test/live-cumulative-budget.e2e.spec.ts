import Big from 'big.js';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { BudgetClient } from '@sts/budget-client';
import { sleep } from '@sts/platform';
import { toVenueOrder } from '@sts/venues';
import { sum } from './live-pairs';
import { eventually, WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(180_000);

/** A maker's part an outside taker takes at each round, and the trade's size (several rounds). */
const TAKE = '0.004';
const TARGET = '0.05';
/** How long the outside taker keeps taking from whatever maker order rests. */
const TAKING_MS = 8_000;

/**
 * Issue 54: cumulative request budgets. Hyperliquid's address budget
 * (10,000 plus one per USDC traded, then one action per 10 s) and Lighter's
 * volume quota (1,000 plus one per 10 USDC, then one transaction per 15 s)
 * never reset; once spent, a hedge IOC waits 10-15 s against a 3 s hedge
 * timeout. Each case spends the hedge venue's budget, has an outside taker
 * take from every maker order the trade rests, and judges by the
 * simulator's own records: the hedge venue's filled size equals the maker
 * venue's, and no hedge timed out (the trade stopped quoting in time).
 * Then a Standard Lighter account is refused at pre-flight, by name.
 */
describe('live cumulative budgets: no fill left unhedged once a budget is spent', () => {
  const harness = new WorkerHarness();
  let nats: NatsConnection;
  let budget: BudgetClient;

  beforeAll(async () => {
    await harness.start({
      liveDialects: ['hyperliquid', 'lighter', 'aster'],
      workers: 1,
      // The venue read every second (Hyperliquid's userRateLimit), reported every 250 ms.
      env: { WORKER_CUMULATIVE_READ_MS: '1000', WORKER_CUMULATIVE_POLL_MS: '250' },
    });
    nats = await connect({ servers: '127.0.0.1:4222' });
    budget = new BudgetClient(nats as never, { natsPrefix: harness.gateway.env['NATS_PREFIX']! });
  });

  afterAll(async () => {
    budget?.close();
    await nats?.drain();
    await harness.stop();
  });

  const dialect = (venue: string, path: string, body: unknown) =>
    fetch(`${harness.gateway.venueSim!.url}/dialects/${venue}/_sim/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => expect(response.status).toBe(200));

  const createTrade = (trader: Trader, maker: string, hedge: string): Promise<string> =>
    harness.createTrade(trader, {
      market: 'BTC',
      long_exchange: maker,
      short_exchange: hedge,
      maker_leg: 'long',
      target_size: TARGET,
      target_spread: '-1000',
    });

  /** For `ms`, every 500 ms: takes TAKE from the trader's resting buy on `venue`, if one rests. */
  async function takeWhatRests(trader: Trader, venue: string, ms: number): Promise<number> {
    let takes = 0;
    for (const ends = Date.now() + ms; Date.now() < ends;) {
      const { orders } = await harness.sim.accountOrders(venue, trader.wallet, { status: 'open' });
      const order = orders.find((o) => o.side === 'buy');
      if (order) {
        await harness
          .takeFromMaker(toVenueOrder(venue, order.symbol, order), TAKE)
          .then(() => (takes += 1))
          .catch(() => undefined);
      }
      await sleep(500);
    }
    return takes;
  }

  /** What the trader bought as maker on `maker` and sold as taker on `hedge`, by the venues' records. */
  async function madeAndHedged(trader: Trader, maker: string, hedge: string) {
    const made = (await harness.sim.fillsOf(maker, trader.wallet)).filter(
      (fill) => fill.side === 'buy' && fill.liquidity === 'maker',
    );
    const hedged = (await harness.sim.fillsOf(hedge, trader.wallet)).filter(
      (fill) => fill.side === 'sell' && fill.liquidity === 'taker',
    );
    return { made: sum(made), hedged: sum(hedged) };
  }

  /** Every maker fill hedged in full (the last hedge may still be landing), and no hedge timed out. */
  async function expectAllHedged(trader: Trader, tradeId: string, maker: string, hedge: string) {
    let seen = { made: '', hedged: '' };
    await eventually(
      async () => {
        seen = await madeAndHedged(trader, maker, hedge);
        return seen.made === seen.hedged;
      },
      `${hedge} to have hedged what ${maker} made`,
      { timeoutMs: 10_000, last: () => seen },
    );
    const events = await harness.events(trader, tradeId);
    expect(events.filter((event) => event.event_type === 'hedge_timeout')).toEqual([]);
    const trade = await harness.trade(trader, tradeId);
    expect(trade.failure_reason).toBe('');
    expect(['active', 'completed']).toContain(trade.status);
    return seen;
  }

  it('Hyperliquid address budget spent: the trade hedging there rests no maker until volume earns it back', async () => {
    const trader = await harness.liveTrader(['aster', 'hyperliquid']);
    // Every address starts with no requests: the credential probe's cancel is already over.
    await dialect('hyperliquid', 'address-budget', { initial_requests: 0 });
    try {
      const tradeId = await createTrade(trader, 'aster', 'hyperliquid');
      await harness.waitForStatus(trader, tradeId, 'active', 30_000);
      await takeWhatRests(trader, 'aster', TAKING_MS);
      const spent = await expectAllHedged(trader, tradeId, 'aster', 'hyperliquid');
      expect(spent.made).toBe('0');
      const { orders } = await harness.sim.accountOrders('aster', trader.wallet, {
        status: 'open',
      });
      expect(orders).toEqual([]);

      // Volume traded elsewhere raises the cap by one request per USDC: the next read says so.
      await dialect('hyperliquid', 'volume', { user: trader.wallet, volume: '100000' });
      await harness.waitForRestingOrder(trader, 'aster', () => true, 10_000);
      const takes = await takeWhatRests(trader, 'aster', 3_000);
      expect(takes).toBeGreaterThan(0);
      const earned = await expectAllHedged(trader, tradeId, 'aster', 'hyperliquid');
      expect(new Big(earned.made).gt(0)).toBe(true);
      await harness.cancelTrade(trader, tradeId).catch(() => undefined);
    } finally {
      await dialect('hyperliquid', 'address-budget', { initial_requests: 10_000 });
    }
  });

  it('Lighter volume quota spent: the trade hedging there rests no maker while the quota cannot pay', async () => {
    const trader = await harness.liveTrader(['aster', 'lighter']);
    await dialect('lighter', 'volume-quota', { l1_address: trader.wallet, initial: 0 });
    // A trade making on Lighter spends the address's quota: its transactions' answers tell the
    // service what is left (the first of each 15 s is free and tells nothing; then 23000).
    const makingOnLighter = await createTrade(trader, 'lighter', 'aster');
    await harness.waitForStatus(trader, makingOnLighter, 'active', 30_000);
    let kept: Awaited<ReturnType<BudgetClient['cumulative']>> = null;
    await eventually(
      async () => {
        kept = await budget.cumulative({
          venue: 'lighter',
          wallet: trader.wallet,
          reading: null,
          spent: 0,
        });
        return kept !== null && kept.left <= 0;
      },
      'the budget service to know the Lighter quota spent',
      { timeoutMs: 20_000, last: () => kept },
    );

    const hedgingOnLighter = await createTrade(trader, 'aster', 'lighter');
    await harness.waitForStatus(trader, hedgingOnLighter, 'active', 30_000);
    await takeWhatRests(trader, 'aster', TAKING_MS);
    const seen = await expectAllHedged(trader, hedgingOnLighter, 'aster', 'lighter');
    expect(seen.made).toBe('0');
    const { orders } = await harness.sim.accountOrders('aster', trader.wallet, { status: 'open' });
    expect(orders).toEqual([]);
    for (const tradeId of [makingOnLighter, hedgingOnLighter]) {
      await harness.cancelTrade(trader, tradeId).catch(() => undefined);
    }
  });

  it('a Lighter account on the Standard tier: the trade is rejected, the tier named', async () => {
    const trader = await harness.liveTrader(['aster', 'lighter']);
    await dialect('lighter', 'account-tier', { l1_address: trader.wallet, tier: 'standard' });
    const tradeId = await createTrade(trader, 'aster', 'lighter');
    const rejected = await harness.waitForStatus(trader, tradeId, 'rejected', 30_000);
    expect(rejected.failure_reason).toMatch(/lighter.*Standard tier/);
  });
});
