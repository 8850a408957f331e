import Big from 'big.js';
import type { LoseNextFault } from '@sts/app-venue-sim';
import type { VenueOrder } from '@sts/venues';
import { eventually } from './eventually';
import { WorkerHarness, type Trader } from './worker-harness';
import { sleep } from '@sts/platform';

jest.setTimeout(60_000);

/** A trade whose condition always holds, with its maker bid resting on Hyperliquid (hedge: Paradex). */
async function restingTrade(
  harness: WorkerHarness,
  targetSize: string,
): Promise<{ trader: Trader; tradeId: string; order: VenueOrder }> {
  const trader = await harness.trader();
  const tradeId = await harness.createTrade(trader, {
    target_size: targetSize,
    target_spread: '-1000',
  });
  return { trader, tradeId, order: await harness.waitForMakerOrder(trader, 'hyperliquid') };
}

/** The next hedge IOC of `trader` on Paradex meets `fault` (see the simulator's lose-next). */
const loseNextHedge = (
  harness: WorkerHarness,
  trader: Trader,
  fault: Pick<LoseNextFault, 'at' | 'then' | 'hangMs' | 'blockMs'>,
): Promise<unknown> =>
  harness.sim.loseNext('paradex', {
    op: 'place',
    orderType: 'ioc',
    wallet: trader.wallet,
    ...fault,
  });

/**
 * Orders whose answer is lost, reproduced at the exact moment with the
 * simulator's fault controls (lose-next, drop-ws), judged by the venue's own
 * records: the trade never has maker size beyond what remains to fill, and
 * never concludes anything from an order before the venue has settled it.
 */
describe('orders of unknown fate (issue 15, items 1 and 2)', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(() => harness.stop());

  /** Sum of the trade's maker fills as the venue recorded them. */
  const venueFilled = async (trader: Trader, venue: string): Promise<string> => {
    const fills = await harness.sim.fillsOf(venue, trader.wallet);
    return fills.reduce((sum, fill) => sum.plus(fill.size), new Big(0)).toFixed();
  };

  it('a maker order filled while the account socket is down is counted before any new order is sized', async () => {
    const { trader, tradeId, order } = await restingTrade(harness, '0.01');

    // The account socket drops and stays refused: the fill below never reaches the stream.
    const { dropped } = await harness.sim.dropSockets('hyperliquid', 4_000, trader.wallet);
    expect(dropped).toBeGreaterThan(0);
    await harness.takeFromMaker(order, '0.01');
    // The maker book moves: the trade re-quotes over HTTP, and the venue answers that the
    // order it moves had filled in full.
    await harness.sim.jumpVenue('hyperliquid', 5, 'BTC');

    const completed = await harness.waitForStatus(trader, tradeId, 'completed', 15_000);
    expect(completed.filled_size).toBe('0.01');
    const orders = (await harness.sim.accountOrders('hyperliquid', trader.wallet)).orders;
    // The first order only: nothing was placed for size that had already filled.
    expect(orders.map((o) => [o.size, o.filled_size])).toEqual([['0.01', '0.01']]);
    expect(await venueFilled(trader, 'hyperliquid')).toBe('0.01');
    expect(await venueFilled(trader, 'paradex')).toBe('0.01');
  });

  it('a replace executed by the venue whose answer is lost is looked up, never placed again', async () => {
    const { trader, tradeId, order: first } = await restingTrade(harness, '0.01');
    await harness.sim.loseNext('hyperliquid', {
      op: 'replace',
      wallet: trader.wallet,
      at: 'after',
      then: 'drop',
      blockMs: 1_000,
    });
    await harness.sim.jumpVenue('hyperliquid', 5, 'BTC');
    const moved = await harness.waitForMakerOrder(
      trader,
      'hyperliquid',
      (o) => o.clientOrderId !== first.clientOrderId,
    );
    // Whatever the trade did to settle the lost answer, one order of the full size rests.
    await sleep(1_500);
    const open = (await harness.sim.accountOrders('hyperliquid', trader.wallet, { status: 'open' }))
      .orders;
    expect(open.map((o) => o.size)).toEqual(['0.01']);

    await harness.takeFromMaker(
      { ...moved, ...(await harness.openOrders(trader, 'hyperliquid'))[0] },
      '0.01',
    );
    const completed = await harness.waitForStatus(trader, tradeId, 'completed', 15_000);
    expect(completed.filled_size).toBe('0.01');
    expect(await venueFilled(trader, 'hyperliquid')).toBe('0.01');
    expect(await venueFilled(trader, 'paradex')).toBe('0.01');
  });

  it('a hedge venue frozen past the hedge timeout: the trade reports exactly what the venue left unhedged', async () => {
    const { trader, tradeId, order } = await restingTrade(harness, '0.01');
    // Every paradex request hangs: the hedge IOC, then its look-ups, past hedge_timeout_ms.
    await harness.sim.freeze('paradex', 'hang');
    try {
      await harness.takeFromMaker(order, '0.004');
      await harness.waitForEvent(trader, tradeId, 'hedge_timeout', 1, 10_000);
      // The hedge's fate is in doubt: the maker order is down, no fill is added meanwhile.
      await harness.waitForNoOpenOrders(trader, 'hyperliquid', 2_000);
      await sleep(1_000);
    } finally {
      await harness.sim.thaw('paradex');
    }
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 1, 15_000);
    const makerFilled = new Big(await venueFilled(trader, 'hyperliquid'));
    const hedged = new Big(await venueFilled(trader, 'paradex'));
    const unhedged = makerFilled.minus(hedged).toFixed();
    const events = await harness.events(trader, tradeId);
    const logged = events
      .filter((e) => e.event_type === 'hedge_filled')
      .reduce((sum, e) => sum.plus(e.data.size as string), new Big(0));
    expect(logged.toFixed()).toBe(hedged.toFixed());
    expect(events.filter((e) => e.event_type === 'hedge_outcome').pop()?.data).toMatchObject({
      filled_size: hedged.toFixed(),
    });
    if (unhedged === '0') {
      expect((await harness.waitForStatus(trader, tradeId, 'active')).failure_reason ?? '').toBe(
        '',
      );
    } else {
      const failed = await harness.waitForStatus(trader, tradeId, 'failed');
      expect(failed.failure_reason).toContain(`unhedged size ${unhedged} BTC on paradex`);
    }
  });

  it("a timed-out hedge's remainder goes with the next maker fill's hedge: each hedge's records agree with the venue's fills of its own orders", async () => {
    const { trader, tradeId, order } = await restingTrade(harness, '0.01');
    // The maker order's first cancel (the take-down while the hedge is in doubt) is held
    // past its expiry: the order rests until the cancel is looked up and sent again (~5.3 s).
    await harness.sim.loseNext('hyperliquid', {
      op: 'cancel',
      wallet: trader.wallet,
      at: 'before',
      then: 'hang',
      hangMs: 8_000,
    });
    await harness.sim.freeze('paradex', 'hang');
    try {
      await harness.takeFromMaker(order, '0.004');
      await harness.waitForEvent(trader, tradeId, 'hedge_timeout', 1, 10_000);
    } finally {
      await harness.sim.thaw('paradex');
    }
    // The held IOC reached the venue past its life: refused, the first hedge ends short.
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 1, 5_000);
    // A fill after that, while the order still rests: its hedge takes the remainder too.
    const resting = (await harness.openOrders(trader, 'hyperliquid'))[0];
    expect(resting?.orderId).toBe(order.orderId);
    await harness.takeFromMaker({ ...order, ...resting }, '0.003');

    const failed = await harness.waitForStatus(trader, tradeId, 'failed', 15_000);
    expect(await venueFilled(trader, 'hyperliquid')).toBe('0.007');
    expect(await venueFilled(trader, 'paradex')).toBe('0.007');
    // The trade failed (a hedge timed out, quoting stopped) and names what the venues left.
    expect(failed.failure_reason).toContain('hedge timed out after');
    expect(failed.failure_reason).toContain('unhedged size 0 BTC on paradex');

    const events = await harness.events(trader, tradeId);
    const paradexFills = await harness.sim.fillsOf('paradex', trader.wallet);
    const series = events
      .filter((e) => e.event_type === 'hedge_outcome')
      .map((outcome) => {
        const ids = new Set(
          events
            .filter((e) => e.event_type === 'hedge_sent' && e.data.cause === outcome.data.cause)
            .map((e) => e.data.client_order_id),
        );
        const venue = paradexFills
          .filter((fill) => ids.has(fill.client_order_id))
          .reduce((sum, fill) => sum.plus(fill.size), new Big(0));
        return [outcome.data.result, outcome.data.requested_size, venue.toFixed()];
      });
    expect(series).toEqual([
      ['timeout', '0.004', '0'],
      ['filled', '0.007', '0.007'],
    ]);
    // The timeout names its own hedge, and the size that hedge left unconfirmed.
    const timedOut = events.filter((e) => e.event_type === 'hedge_timeout');
    const firstCause = events.find((e) => e.event_type === 'hedge_outcome')?.data.cause;
    expect(timedOut.map((e) => [e.data.cause, e.data.unhedged_size])).toEqual([
      [firstCause, '0.004'],
    ]);
  });

  it('a slow hedge venue is not a hanging one: once its pace is known, a hedge answered in 600 ms leaves the maker order resting', async () => {
    // Every paradex request and message takes 300 ms (an order's answer about 600 ms), as a
    // live venue across the internet may.
    await harness.sim.setLatency('paradex', 300);
    try {
      const { trader, tradeId, order } = await restingTrade(harness, '0.01');
      // The first hedge teaches the worker the venue's pace (the maker order may come down meanwhile).
      await harness.takeFromMaker(order, '0.003');
      await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 1, 10_000);
      const resting = await harness.waitForMakerOrder(trader, 'hyperliquid');
      await harness.takeFromMaker(resting, '0.003');
      await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 2, 10_000);

      const events = await harness.events(trader, tradeId);
      const sent = events.filter((e) => e.event_type === 'hedge_sent')[1];
      const filled = events.filter((e) => e.event_type === 'hedge_filled')[1];
      // The second IOC went unanswered far longer than the 250 ms that suits the paper venues...
      expect(Date.parse(filled.created_at) - Date.parse(sent.created_at)).toBeGreaterThan(400);
      // ... and the maker order was not taken down for it: it rests at the venue, filled as taken.
      const atVenue = (await harness.sim.accountOrders('hyperliquid', trader.wallet)).orders.find(
        (o) => o.order_id === resting.orderId,
      );
      expect([
        atVenue?.status,
        new Big(atVenue!.filled_size).minus(resting.filledSize).toFixed(),
      ]).toEqual(['partially_filled', '0.003']);
      expect(await venueFilled(trader, 'paradex')).toBe('0.006');
    } finally {
      await harness.sim.setLatency('paradex', 0);
    }
  });

  it('a hedge IOC held past its lifetime is refused by the venue, settled and retried in time', async () => {
    const { trader, tradeId, order } = await restingTrade(harness, '0.004');
    // Held 2 s before the engine sees it: past its lifetime (a quarter of hedge_timeout_ms).
    await loseNextHedge(harness, trader, {
      at: 'before',
      then: 'hang',
      hangMs: 2_000,
    });
    await harness.takeFromMaker(order, '0.004');
    const completed = await harness.waitForStatus(trader, tradeId, 'completed', 15_000);
    expect(completed.failure_reason ?? '').toBe('');
    const events = await harness.events(trader, tradeId);
    expect(events.map((e) => e.event_type)).not.toContain('hedge_timeout');
    expect(events.filter((e) => e.event_type === 'hedge_sent').map((e) => e.data.attempt)).toEqual([
      1, 2,
    ]);
    expect(await venueFilled(trader, 'paradex')).toBe('0.004');
  });

  it('a hedge whose answer is lost after the venue filled it is looked up: hedge_filled, no second hedge', async () => {
    const { trader, tradeId, order } = await restingTrade(harness, '0.004');
    await loseNextHedge(harness, trader, {
      at: 'after',
      then: 'drop',
      blockMs: 1_000,
    });
    await harness.takeFromMaker(order, '0.004');
    await harness.waitForStatus(trader, tradeId, 'completed', 15_000);
    const events = await harness.events(trader, tradeId);
    expect(events.filter((e) => e.event_type === 'hedge_sent')).toHaveLength(1);
    expect(events.find((e) => e.event_type === 'hedge_filled')?.data).toMatchObject({
      size: '0.004',
    });
    expect(await venueFilled(trader, 'paradex')).toBe('0.004');
  });
  it('a placement that never reached the venue is settled once it can no longer arrive, then placed anew', async () => {
    const trader = await harness.trader();
    await harness.sim.loseNext('hyperliquid', {
      op: 'place',
      wallet: trader.wallet,
      at: 'before',
      then: 'drop',
    });
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid', () => true, 15_000);
    const orders = (await harness.sim.accountOrders('hyperliquid', trader.wallet)).orders;
    expect(orders).toHaveLength(1);
    expect(orders[0].size).toBe('0.01');
    await harness.takeFromMaker(order, '0.01');
    await harness.waitForStatus(trader, tradeId, 'completed', 15_000);
    expect(await venueFilled(trader, 'hyperliquid')).toBe('0.01');
  });

  it('a hedge IOC that never reached the venue is retried only once it can no longer arrive', async () => {
    const { trader, tradeId, order } = await restingTrade(harness, '0.004');
    await loseNextHedge(harness, trader, {
      at: 'before',
      then: 'drop',
    });
    await harness.takeFromMaker(order, '0.004');
    await harness.waitForStatus(trader, tradeId, 'completed', 20_000);
    const events = await harness.events(trader, tradeId);
    const sent = events.filter((e) => e.event_type === 'hedge_sent').map((e) => e.data);
    expect(sent.map((d) => d.attempt)).toEqual([1, 2]);
    expect(await venueFilled(trader, 'paradex')).toBe('0.004');
  });
});

describe('a halted venue pauses, it does not fail (issue 15, item 9)', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(() => harness.stop());

  it('a maker order refused as venue_halted pauses the trade; it resumes once the venue answers', async () => {
    const { trader, tradeId } = await restingTrade(harness, '0.01');
    await harness.sim.freeze('hyperliquid', 'halt');
    try {
      // A halted venue's book stands still: a larger target makes the trade re-quote into it.
      const amended = await harness.gateway.request('PATCH', `/api/v1/trades/${tradeId}`, {
        headers: trader.headers,
        body: { target_size: '0.02' },
      });
      expect([200, 202]).toContain(amended.status);
      const paused = await harness.waitForStatus(trader, tradeId, 'paused', 10_000);
      expect(paused.failure_reason ?? '').toBe('');
      const lifecycle = await harness.waitForLifecycle(tradeId, 'trade.paused');
      expect(lifecycle[lifecycle.length - 1].data).toMatchObject({
        reason: 'venue_halted',
        exchange: 'hyperliquid',
      });
    } finally {
      await harness.sim.thaw('hyperliquid');
    }
    await harness.waitForStatus(trader, tradeId, 'active', 10_000);
    await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.cancelTrade(trader, tradeId);
  });

  it('a hedge refused as venue_halted pauses the trade (no new maker fill meanwhile); it resumes once hedged', async () => {
    const { trader, tradeId, order } = await restingTrade(harness, '0.004');
    await harness.sim.freeze('paradex', 'halt');
    try {
      await harness.takeFromMaker(order, '0.002');
      await harness.waitForStatus(trader, tradeId, 'paused', 3_000);
      await harness.waitForNoOpenOrders(trader, 'hyperliquid');
    } finally {
      await harness.sim.thaw('paradex');
    }
    await harness.waitForStatus(trader, tradeId, 'active', 10_000);
    const events = await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 1, 10_000);
    expect(events.find((e) => e.event_type === 'hedge_outcome')?.data).toMatchObject({
      result: 'filled',
      filled_size: '0.002',
    });
    const lifecycle = await harness.waitForLifecycle(tradeId, 'trade.resumed');
    expect(lifecycle.find((e) => e.event === 'trade.paused')?.data).toMatchObject({
      reason: 'venue_halted',
      exchange: 'paradex',
    });
    await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.cancelTrade(trader, tradeId);
  });

  it('a trade created while the venue sockets are down waits for them instead of being rejected', async () => {
    const trader = await harness.trader();
    // Refused for longer than an account takes to give up connecting (10 s).
    await harness.sim.dropSockets('hyperliquid', 12_000);
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    // Back after 12 s, seen at the next reconnect (its backoff reaches 5 s): within pre-flight's 22 s.
    await harness.waitForStatus(trader, tradeId, 'active', 30_000);
    await eventually(
      async () => (await harness.openOrders(trader, 'hyperliquid')).length === 1,
      'the maker order resting once the venue is back',
    );
    await harness.cancelTrade(trader, tradeId);
  });
});
