import { WorkerHarness } from './worker-harness';

jest.setTimeout(120_000);

/**
 * A wallet's trades run on one worker (AccountAffinity): the work queue
 * hands each start command to any worker, and that worker offers the trade
 * to the one already running trades on its maker account, so one account
 * session carries them all and their orders can go in the venue's batches.
 * Judged by the trades' rows: who holds each lease.
 */
describe("a wallet's trades gather on the worker running its account", () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    // Six maker trades on one Hyperliquid wallet.
    await harness.start({ workers: 0, env: { VENUE_HYPERLIQUID_MAKER_CAP: '6' } });
  });

  afterEach(() => harness.stopWorkers());

  afterAll(() => harness.stop());

  const owners = async (tradeIds: string[]): Promise<string[]> =>
    (
      await harness.gateway.query<{ lease_owner: string }>(
        `SELECT lease_owner FROM trades WHERE id = ANY($1) ORDER BY created_at`,
        [tradeIds],
      )
    ).map((row) => row.lease_owner);

  it('five more trades of the wallet all start on the worker running its first, none on the idle one', async () => {
    const first = await harness.addWorker();
    const trader = await harness.trader();
    const trades = [await harness.createTrade(trader, { target_spread: '-1000' })];
    await harness.waitForStatus(trader, trades[0]!, 'active');
    const idle = await harness.addWorker();
    for (let i = 0; i < 5; i += 1) {
      trades.push(await harness.createTrade(trader, { target_spread: '-1000' }));
    }
    for (const tradeId of trades) {
      await harness.waitForStatus(trader, tradeId, 'active');
    }
    // Handed out by the work queue alone, the idle worker took about half of them.
    expect(await owners(trades)).toEqual(trades.map(() => first.workerId));
    expect(idle.tradeCount()).toBe(0);
    for (const tradeId of trades) {
      await harness.cancelTrade(trader, tradeId);
    }
  });

  it('a worker with no room for another: the trade starts where its command landed', async () => {
    const full = await harness.addWorker({ WORKER_MAX_TRADES: '1' });
    const trader = await harness.trader();
    const held = await harness.createTrade(trader, { target_spread: '-1000' });
    await harness.waitForStatus(trader, held, 'active');
    const other = await harness.addWorker();
    const next = await harness.createTrade(trader, { target_spread: '-1000' });
    await harness.waitForStatus(trader, next, 'active');
    expect(await owners([held, next])).toEqual([full.workerId, other.workerId]);
    await harness.cancelTrade(trader, held);
    await harness.cancelTrade(trader, next);
  });
});
