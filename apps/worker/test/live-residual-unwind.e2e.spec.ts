import Big from 'big.js';
import { clientOrderId } from '@sts/domain';
import { eventually } from './eventually';
import { sum, UNBOUNDED_TAKEOVER_MS } from './live-pairs';
import {
  KILLED_WORKERS_REQUESTS_GONE,
  NEW_WORKER_FIRST_ORDER_MS,
  SHORT_LEASE,
  SYMBOLS,
  WorkerHarness,
  type Trader,
} from './worker-harness';
import type { WorkerProcess } from './worker-process';

jest.setTimeout(150_000);

/**
 * Decisions 2 on the live path: maker fills the hedge venue's lot cannot take
 * are unwound at the trade's end on the maker venue by a reduce-only IOC, sent
 * by ccxt in the venue's own form (Hyperliquid's `r: true`, Lighter's
 * transaction `ReduceOnly`) to the simulator's dialects, which used to refuse
 * it, so the live unwind came back `rejected` and the wallet stayed one-sided.
 * Judged by the simulator's own fills: the maker venue sold back exactly the
 * remainder, and the wallet is flat in the market within one lot.
 *
 * Each trade: BTC, maker long on the live maker venue (lot 0.00001), hedged on
 * Aster (lot 0.001); 0.00195 filled, 0.001 hedged, 0.00095 left, and the
 * 0.00005 left of the target makes no order, so the trade completes with it.
 */
const TARGET = '0.002';
const FILLED = '0.00195';
const RESIDUAL = '0.00095';
const MAKER_LOT = '0.00001';

describe('live: a remainder the hedge venue cannot take is unwound on the maker venue', () => {
  const harness = new WorkerHarness();
  let worker: WorkerProcess;

  beforeAll(async () => {
    await harness.start({ liveDialects: ['hyperliquid', 'lighter', 'aster'], workers: 0 });
    worker = await harness.spawnWorker();
  });

  afterAll(() => harness.stop());

  /** The trade: maker long on `maker`, hedge on Aster, its maker order resting. */
  async function restingTrade(maker: string) {
    const trader = await harness.liveTrader([maker, 'aster']);
    const tradeId = await harness.createTrade(trader, {
      market: 'BTC',
      long_exchange: maker,
      short_exchange: 'aster',
      maker_leg: 'long',
      target_size: TARGET,
      target_spread: '-1000',
    });
    const order = await harness.waitForRestingOrder(
      trader,
      maker,
      undefined,
      NEW_WORKER_FIRST_ORDER_MS,
    );
    expect(order.size).toBe(TARGET);
    return { trader, tradeId, order };
  }

  /** What the maker venue sold: the unwind's fills (the maker leg buys). */
  const unwoundOn = async (trader: Trader, maker: string): Promise<string> =>
    sum((await harness.sim.fillsOf(maker, trader.wallet)).filter((fill) => fill.side === 'sell'));

  /** The wallet's position in BTC across both venues, from the venues' records. */
  async function walletNet(trader: Trader, maker: string): Promise<Big> {
    let net = new Big(0);
    for (const venue of [maker, 'aster']) {
      for (const fill of await harness.sim.fillsOf(venue, trader.wallet)) {
        if (fill.symbol === SYMBOLS['BTC']![venue]) {
          net = fill.side === 'buy' ? net.plus(fill.size) : net.minus(fill.size);
        }
      }
    }
    return net;
  }

  async function expectUnwound(trader: Trader, tradeId: string, maker: string): Promise<void> {
    const completed = await harness.waitForStatus(trader, tradeId, 'completed', 60_000);
    expect(completed).toMatchObject({
      filled_size: FILLED,
      failure_reason: '',
      residual_unhedged: RESIDUAL,
      residual_unwound: RESIDUAL,
    });
    const events = await harness.events(trader, tradeId);
    const outcomes = events.filter((event) => event.event_type === 'unwind_outcome');
    expect(outcomes[outcomes.length - 1]!.data).toMatchObject({
      result: 'filled',
      exchange: maker,
      side: 'sell',
      requested_size: RESIDUAL,
      filled_size: RESIDUAL,
      client_order_id: clientOrderId(tradeId, { kind: 'unwind', attempt: 1 }),
    });
    // The venues' records: one unwind of the remainder, taker, and nothing one-sided left.
    expect(await unwoundOn(trader, maker)).toBe(RESIDUAL);
    const sells = (await harness.sim.fillsOf(maker, trader.wallet)).filter(
      (fill) => fill.side === 'sell',
    );
    expect(sells.every((fill) => fill.liquidity === 'taker')).toBe(true);
    expect(sum(await harness.sim.fillsOf('aster', trader.wallet))).toBe('0.001');
    expect((await walletNet(trader, maker)).abs().lte(MAKER_LOT)).toBe(true);
  }

  it("lighter: the unwind goes as the transaction's ReduceOnly and the wallet ends flat", async () => {
    const { trader, tradeId, order } = await restingTrade('lighter');
    await harness.takeFromMaker(order, FILLED);
    await expectUnwound(trader, tradeId, 'lighter');
    const sent = (await harness.events(trader, tradeId)).filter(
      (event) => event.event_type === 'unwind_sent',
    );
    expect(sent.map((event) => event.data)).toEqual([
      expect.objectContaining({ side: 'sell', size: RESIDUAL, reduce_only: true }),
    ]);
  });

  it('hyperliquid: a worker that dies while its unwind executes leaves the next one its outcome, not a second unwind', async () => {
    // The worker that dies holds the short lease: its trade passes 2 s after its last renewal.
    expect(await worker.stop()).toBe(0);
    worker = await harness.spawnWorker(SHORT_LEASE);
    const { trader, tradeId, order } = await restingTrade('hyperliquid');
    // The unwind (the only IOC this wallet sends on Hyperliquid) executes; its answer never comes.
    await harness.sim.loseNext('hyperliquid', {
      op: 'place',
      orderType: 'ioc',
      at: 'after',
      then: 'hang',
      hangMs: 60_000,
    });
    await harness.takeFromMaker(order, FILLED);
    let unwound = '0';
    await eventually(
      async () => (unwound = await unwoundOn(trader, 'hyperliquid')) === RESIDUAL,
      'the unwind executed on hyperliquid',
      { timeoutMs: 30_000, intervalMs: 50, last: () => ({ unwound }) },
    );
    await worker.kill();
    expect((await harness.trade(trader, tradeId)).status).toBe('active');

    worker = await harness.spawnWorker({ ...SHORT_LEASE, ...KILLED_WORKERS_REQUESTS_GONE });
    await harness.waitForEvent(trader, tradeId, 'recovery_completed', 1, UNBOUNDED_TAKEOVER_MS);
    // Before, the next worker sent the same cloid again: refused as a duplicate, logged
    // `rejected`, residual_unwound 0, although the first unwind had filled.
    await expectUnwound(trader, tradeId, 'hyperliquid');
    const events = await harness.events(trader, tradeId);
    expect(events.filter((event) => event.event_type === 'unwind_sent')).toHaveLength(1);
  });
});
