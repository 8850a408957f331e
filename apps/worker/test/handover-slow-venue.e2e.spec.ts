import { SHORT_LEASE, WorkerHarness } from './worker-harness';

jest.setTimeout(90_000);

/**
 * A graceful stop whose hand-over outlasts the lease's trust: the maker
 * venue holds the cancel that takes the trade's order down for longer than
 * the 2 s lease. The stopping worker keeps renewing its leases until its
 * trades are quiet, so the trade is still handed over (the next worker
 * resumes it from its log, cause `handover`), not left to expire into a
 * takeover.
 */
describe('a hand-over slower than the lease', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start({ workers: 0, env: SHORT_LEASE });
  });

  afterEach(() => harness.stopWorkers());

  afterAll(() => harness.stop());

  it('is still a hand-over when the maker cancel takes longer than the lease', async () => {
    const first = await harness.spawnWorker();
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    await harness.waitForMakerOrder(trader, 'hyperliquid');
    const second = await harness.addWorker();
    // The hand-over's cancel is held 2.5 s before the venue sees it: past the whole 2 s lease.
    await harness.sim.loseNext('hyperliquid', {
      op: 'cancel',
      at: 'before',
      then: 'hang',
      hangMs: 2_500,
    });

    expect(await first.stop()).toBe(0);
    const events = await harness.waitForEvent(trader, tradeId, 'recovery_completed', 1, 15_000);
    const resumed = events.find((event) => event.event_type === 'recovery_completed');
    expect(resumed).toMatchObject({ worker_id: second.workerId });
    expect(resumed?.data).toMatchObject({ previous_worker_id: first.workerId, cause: 'handover' });
    // A hand-over is no status change: no recovering, no trade.resumed.
    expect(harness.lifecycleOf(tradeId)).toEqual(['trade.started']);
  });
});
