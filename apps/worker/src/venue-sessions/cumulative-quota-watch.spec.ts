import pino from 'pino';
import type { BudgetClient } from '@sts/budget-client';
import type { CumulativeAccountQuota } from '@sts/contracts';
import type { CumulativeBudget, VenueClient } from '@sts/venues';
import { CumulativeQuotaWatch } from './cumulative-quota-watch';

const READ_EVERY_MS = 30_000;

/** The budget service's keeping of one account: the newest reading any worker reported. */
function budgetService(): BudgetClient {
  let quota: CumulativeAccountQuota | null = null;
  return {
    cumulative: (report: {
      reading: { left: number; read_at_ms: number } | null;
      spent: number;
    }) => {
      const reading = report.reading;
      if (reading && (!quota || reading.read_at_ms > quota.read_at_ms)) {
        quota = { ...reading, spent: 0, spend_per_s: 1, hedge_holders: 0 };
      }
      return Promise.resolve(quota);
    },
  } as unknown as BudgetClient;
}

/** One worker's watch of the shared account, counting its venue reads. */
function workerWatch(budget: BudgetClient) {
  const reads = { count: 0 };
  const client = {
    cumulativeBudget: (): Promise<CumulativeBudget> => {
      reads.count += 1;
      return Promise.resolve({ left: 10_000, atMs: Date.now(), spentPaceMs: 10_000 });
    },
  } as unknown as VenueClient;
  const watch = new CumulativeQuotaWatch(
    {
      venue: 'hyperliquid',
      wallet: '0xabc',
      client,
      paying: (send) => send(),
      logger: pino({ level: 'silent' }),
    },
    { budget, pollMs: 1_000, readEveryMs: READ_EVERY_MS },
  );
  return { watch, reads };
}

describe("an account's cumulative budget followed by several workers", () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_700_000_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('is read from the venue once a period, not once per worker', async () => {
    const budget = budgetService();
    const workers = [workerWatch(budget), workerWatch(budget), workerWatch(budget)];
    for (let second = 0; second < 90; second += 1) {
      for (const { watch } of workers) {
        await watch.poll();
      }
      await jest.advanceTimersByTimeAsync(1_000);
    }
    const reads = workers.reduce((sum, { reads: counted }) => sum + counted.count, 0);
    // 90 s at one read a 30 s period: 3, where each worker reading on its own made 9.
    expect(reads).toBe(3);
    expect(workers[0]!.watch.current()).toMatchObject({ left: 10_000 });
  });
});
