import pino from 'pino';
import type { BudgetClient } from '@sts/budget-client';
import type { CumulativeAccountQuota } from '@sts/contracts';
import type { CumulativeBudget, VenueClient } from '@sts/venues';
import { CumulativeQuotaWatch } from './cumulative-quota-watch';

const READ_EVERY_MS = 30_000;

/** The budget service's keeping of one account (its limit `spendPerS`): the newest reading any worker reported. */
function budgetService(spendPerS = 20): BudgetClient {
  let quota: CumulativeAccountQuota | null = null;
  return {
    cumulative: (report: {
      reading: { left: number; read_at_ms: number } | null;
      spent: number;
    }) => {
      const reading = report.reading;
      if (reading && (!quota || reading.read_at_ms > quota.read_at_ms)) {
        quota = { ...reading, spent: 0, spend_per_s: spendPerS, hedge_holders: 0 };
      } else if (quota) {
        quota = { ...quota, spent: quota.spent + report.spent };
      }
      return Promise.resolve(quota);
    },
  } as unknown as BudgetClient;
}

/** One worker's watch of the shared account (the venue says `left`), counting its venue reads. */
function workerWatch(budget: BudgetClient, left = 500) {
  const reads = { count: 0, atS: [] as number[] };
  const startedAtMs = Date.now();
  const client = {
    cumulativeBudget: (): Promise<CumulativeBudget> => {
      reads.count += 1;
      reads.atS.push(Math.round((Date.now() - startedAtMs) / 1_000));
      return Promise.resolve({ left, atMs: Date.now(), spentPaceMs: 10_000 });
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
    expect(workers[0]!.watch.current()).toMatchObject({ left: 500 });
  });

  /** Polls one worker's watch every second for `seconds`, spending `perPoll` requests before each. */
  async function follow(left: number, seconds: number, perPoll = 0) {
    const worker = workerWatch(budgetService(20), left);
    for (let second = 0; second < seconds; second += 1) {
      worker.watch.spent(perPoll);
      await worker.watch.poll();
      await jest.advanceTimersByTimeAsync(1_000);
    }
    return worker.reads.atS;
  }

  it('is read every period near the end of the budget', async () => {
    // 500 left at 20 a second: a quarter is spent in 6 s, under the 30 s period.
    expect(await follow(500, 95)).toEqual([0, 30, 60, 90]);
  });

  it('is read as seldom as a quarter of what is left allows, far from the end', async () => {
    // 10,000 left at 20 a second: a quarter takes 125 s at the account's full rate.
    expect(await follow(10_000, 300)).toEqual([0, 125, 250]);
  });

  it('is read sooner as the spends counted since eat what is left', async () => {
    // 3,000 left at 20 a second: a quarter in 37.5 s. Spending 50 a second, a quarter of
    // what is left takes less than the period by 30 s: back to the period.
    expect(await follow(3_000, 100)).toEqual([0, 38, 76]);
    expect(await follow(3_000, 100, 50)).toEqual([0, 30, 60, 90]);
  });

  it('is read at least every ten minutes however much is left', async () => {
    expect(await follow(10_000_000, 1_300)).toEqual([0, 600, 1_200]);
  });
});
