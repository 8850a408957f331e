import { DEFAULT_BUCKET_WINDOW_MS, TokenBucket, type BucketClock } from '@sts/budget-client';
import { createLogger, type Logger } from '@sts/platform';
import { RateLimitedError, type Unsubscribe } from '@sts/venues';
import { ScriptedDeadMan, ScriptedVenue } from '../../test/support/scripted-venue';
import { WorkerMetrics } from '../metrics/worker-metrics';
import { AccountSession } from './account-session';
import type { DeadManPolicy, DeadManStatus } from './dead-man-keeper';

/** Time stands still for buckets: a token taken is not given back. */
const frozen: BucketClock = { now: () => 0, schedule: () => () => undefined };

interface Account {
  session: AccountSession;
  deadMan: ScriptedDeadMan;
  statuses: DeadManStatus[];
  metrics: WorkerMetrics;
  warnings: string[];
  /** A trade starts listening, paying from `bucket` (one token unless told). */
  listen(tag: string, bucket?: TokenBucket): Unsubscribe;
}

/** A logger that keeps the messages of its warnings. */
function recordingLogger(warnings: string[]): Logger {
  const logger = createLogger('spec', 'silent');
  logger.warn = ((_fields: unknown, message: string) => {
    warnings.push(message);
  }) as unknown as Logger['warn'];
  return logger;
}

async function account(
  policy: Partial<DeadManPolicy> = {},
  deadMan: ScriptedDeadMan | null = new ScriptedDeadMan(),
  live = false,
): Promise<Account> {
  const venue = new ScriptedVenue('hyperliquid');
  venue.deadManSwitch = deadMan;
  venue.sendsFollowUpRequests = live;
  const statuses: DeadManStatus[] = [];
  const warnings: string[] = [];
  const metrics = new WorkerMetrics();
  const session = new AccountSession(
    'hyperliquid',
    '0xwallet',
    () => Promise.resolve(venue),
    recordingLogger(warnings),
    {
      timeoutMs: 15_000,
      onStatus: (_venue, _wallet, status) => statuses.push(status),
      onArmFailure: (name, kind) => metrics.recordDeadManFailure(name, kind),
      ...policy,
    },
  );
  await session.connect();
  metrics.watchDeadMen(() =>
    session.deadManStatus ? [{ venue: session.venue, ...session.deadManStatus }] : [],
  );
  const listen = (tag: string, bucket = plenty()): Unsubscribe =>
    session.listen(tag, { onFill: () => undefined, onOrder: () => undefined, bucket });
  return { session, deadMan: deadMan!, statuses, metrics, warnings, listen };
}

/** A trade's budget that never runs dry within a spec. */
const plenty = (): TokenBucket => new TokenBucket(50, { burst: 50, clock: frozen });

const timeouts = (deadMan: ScriptedDeadMan): number[] => deadMan.armings.map((a) => a.timeoutMs);
const sinceStart = (deadMan: ScriptedDeadMan, start: number): number[] =>
  deadMan.armings.map((a) => a.atMs - start);

/** The value of one series of the registry, or undefined when it is not there. */
async function series(
  metrics: WorkerMetrics,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  const matches = (have: Record<string, unknown>): boolean =>
    Object.entries(labels).every(([label, value]) => have[label] === value);
  return metric?.values.find((value) => matches(value.labels))?.value;
}

describe('the dead-man switch of a venue account', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('is armed when the first trade listens, and re-armed every third of the timeout', async () => {
    const { deadMan, session, listen } = await account();
    expect(deadMan.armings).toEqual([]);
    const start = Date.now();
    listen('trade-a');
    await jest.advanceTimersByTimeAsync(0);
    expect(session.deadManStatus).toMatchObject({
      state: 'armed',
      armedUntilMs: start + 15_000,
      lastRefreshAtMs: start,
    });
    // A second trade on the account pushes nothing more: one keeper per account.
    listen('trade-b');
    await jest.advanceTimersByTimeAsync(15_000);
    expect(sinceStart(deadMan, start)).toEqual([0, 5_000, 10_000, 15_000]);
    expect(timeouts(deadMan)).toEqual([15_000, 15_000, 15_000, 15_000]);
  });

  it("pays each arming from a listening trade's budget on the account", async () => {
    const { deadMan, listen } = await account();
    const bucket = new TokenBucket(4, { clock: frozen });
    listen('trade-a', bucket);
    await jest.advanceTimersByTimeAsync(0);
    expect(deadMan.armings).toHaveLength(1);
    // The bucket's one token went to the arming.
    expect(bucket.take()).toBe(false);
  });

  it('charges an arming what the venue weighs it, beyond the token it took', async () => {
    const deadMan = new ScriptedDeadMan();
    // Aster's countdownCancelAll: 5 tokens.
    deadMan.armingTokens = 5;
    const { listen } = await account({}, deadMan, true);
    const bucket = new TokenBucket(4, { burst: 2, clock: frozen });
    listen('trade-a', bucket);
    await jest.advanceTimersByTimeAsync(0);
    expect(deadMan.armings).toHaveLength(1);
    // Two tokens at rest, one taken and four charged: three owed, so the next token is four
    // refills away, a whole window at 4 a window (without the charge: there at once).
    expect(bucket.msUntilAvailable()).toBe(DEFAULT_BUCKET_WINDOW_MS);
  });

  it("never queues before a trade's own request: with the budget dry it goes unpaid after 1.5 s", async () => {
    const { deadMan, listen } = await account();
    const bucket = new TokenBucket(4, { clock: frozen });
    expect(bucket.take()).toBe(true);
    // The trade's next request (a hedge, say) waits for the bucket's next token.
    const hedge = bucket.waitFor();
    listen('trade-a', bucket);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(bucket.waiting).toBe(1);
    expect(deadMan.armings).toEqual([]);
    await jest.advanceTimersByTimeAsync(500);
    expect(deadMan.armings).toHaveLength(1);
    expect(bucket.waiting).toBe(1);
    bucket.close('spec over');
    await expect(hedge).rejects.toThrow();
  });

  it("is armed with the switch's minimum when the setting is below it, with a warning", async () => {
    const { deadMan, session, warnings, listen } = await account({ timeoutMs: 2_000 });
    expect(warnings.join('\n')).toMatch(/below the venue switch's minimum/);
    const start = Date.now();
    listen('trade-a');
    await jest.advanceTimersByTimeAsync(5_000);
    expect(timeouts(deadMan)).toEqual([5_000, 5_000, 5_000, 5_000]);
    // Re-armed every third of the timeout it is armed with.
    expect(sinceStart(deadMan, start)).toEqual([0, 1_666, 3_332, 4_998]);
    expect(session.deadManStatus?.timeoutMs).toBe(5_000);
  });

  it('keeps a refusal as its state, asks again only slowly, and counts it', async () => {
    const { deadMan, session, metrics, listen } = await account();
    deadMan.answer = { refuse: 'Cannot set scheduled cancel time until enough volume traded' };
    const start = Date.now();
    listen('trade-a');
    await jest.advanceTimersByTimeAsync(59_999);
    expect(session.deadManStatus).toMatchObject({
      state: 'unavailable',
      reason: 'Cannot set scheduled cancel time until enough volume traded',
    });
    expect(sinceStart(deadMan, start)).toEqual([0]);
    deadMan.answer = 'arm';
    await jest.advanceTimersByTimeAsync(1);
    expect(sinceStart(deadMan, start)).toEqual([0, 60_000]);
    expect(session.deadManStatus?.state).toBe('armed');
    expect(
      await series(metrics, 'sts_worker_dead_man_arm_failures_total', {
        venue: 'hyperliquid',
        kind: 'refused',
      }),
    ).toBe(1);
  });

  it('retries a failed arming at the next tick, counting each failure', async () => {
    const { deadMan, session, metrics, listen } = await account();
    deadMan.answer = { fail: new Error('socket hang up') };
    const start = Date.now();
    listen('trade-a');
    await jest.advanceTimersByTimeAsync(5_000);
    expect(session.deadManStatus).toMatchObject({ state: 'failing', reason: 'socket hang up' });
    deadMan.answer = 'arm';
    await jest.advanceTimersByTimeAsync(5_000);
    expect(sinceStart(deadMan, start)).toEqual([0, 5_000, 10_000]);
    expect(session.deadManStatus?.state).toBe('armed');
    expect(
      await series(metrics, 'sts_worker_dead_man_arm_failures_total', {
        venue: 'hyperliquid',
        kind: 'failed',
      }),
    ).toBe(2);
  });

  it('waits longer after each rate-limited arming in a row, up to a minute, and keeps its pace once armed', async () => {
    const { deadMan, session, listen } = await account();
    deadMan.answer = { fail: new RateLimitedError('hyperliquid', 1_000) };
    const start = Date.now();
    listen('trade-a');
    await jest.advanceTimersByTimeAsync(200_000);
    // 5, 10, 20, 40 s, then a minute apart: not every 5 s into a full window.
    expect(sinceStart(deadMan, start)).toEqual([
      0, 5_000, 15_000, 35_000, 75_000, 135_000, 195_000,
    ]);
    expect(session.deadManStatus?.state).toBe('failing');
    deadMan.answer = 'arm';
    await jest.advanceTimersByTimeAsync(60_000);
    expect(session.deadManStatus?.state).toBe('armed');
    const armedAt = deadMan.armings.at(-1)!.atMs;
    await jest.advanceTimersByTimeAsync(5_000);
    expect(deadMan.armings.at(-1)!.atMs - armedAt).toBe(5_000);
  });

  it('is disarmed the grace after the last trade left, and not re-armed after', async () => {
    const { deadMan, session, statuses, listen } = await account({ graceMs: 5_000 });
    const first = listen('trade-a');
    const second = listen('trade-b');
    await jest.advanceTimersByTimeAsync(1_000);
    first();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(deadMan.disarmings).toEqual([]);
    const leftAt = Date.now();
    second();
    await jest.advanceTimersByTimeAsync(4_999);
    expect(deadMan.disarmings).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(deadMan.disarmings).toEqual([leftAt + 5_000]);
    expect(session.deadManStatus?.state).toBe('idle');
    expect(statuses.at(-1)?.state).toBe('idle');
    const armed = deadMan.armings.length;
    await jest.advanceTimersByTimeAsync(60_000);
    expect(deadMan.armings).toHaveLength(armed);
  });

  it('is not disarmed when another trade comes within the grace, and stays armed', async () => {
    const { deadMan, session, listen } = await account({ graceMs: 5_000 });
    const first = listen('trade-a');
    await jest.advanceTimersByTimeAsync(1_000);
    first();
    await jest.advanceTimersByTimeAsync(3_000);
    listen('trade-b');
    await jest.advanceTimersByTimeAsync(30_000);
    expect(deadMan.disarmings).toEqual([]);
    expect(session.deadManStatus?.state).toBe('armed');
    // Re-armed on its cadence all along: once at the start, then every 5 s.
    expect(deadMan.armings).toHaveLength(7);
  });

  it('sends no disarming for a switch the venue refused all along', async () => {
    const { deadMan, session, listen } = await account({ graceMs: 5_000 });
    deadMan.answer = { refuse: 'too many triggers today' };
    listen('trade-a')();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(deadMan.disarmings).toEqual([]);
    expect(session.deadManStatus?.state).toBe('idle');
  });

  it('is armed again when a trade comes after it was disarmed', async () => {
    const { deadMan, session, listen } = await account({ graceMs: 5_000 });
    listen('trade-a')();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(deadMan.disarmings).toHaveLength(1);
    const before = deadMan.armings.length;
    listen('trade-b');
    await jest.advanceTimersByTimeAsync(0);
    expect(deadMan.armings).toHaveLength(before + 1);
    expect(session.deadManStatus?.state).toBe('armed');
  });

  it('is `none` on a venue without a switch, and counted in no state', async () => {
    const { session, metrics, listen } = await account({}, null);
    listen('trade-a');
    await jest.advanceTimersByTimeAsync(0);
    expect(session.deadManStatus?.state).toBe('none');
    expect(
      await series(metrics, 'sts_worker_dead_man_accounts', {
        venue: 'hyperliquid',
        state: 'armed',
      }),
    ).toBeUndefined();
  });

  it('shows armed accounts per venue and the age of the oldest refresh in the metrics', async () => {
    const { metrics, deadMan, listen } = await account();
    listen('trade-a');
    await jest.advanceTimersByTimeAsync(4_000);
    const gauge = (state: string) =>
      series(metrics, 'sts_worker_dead_man_accounts', { venue: 'hyperliquid', state });
    expect(await gauge('armed')).toBe(1);
    expect(await gauge('unavailable')).toBe(0);
    expect(
      await series(metrics, 'sts_worker_dead_man_refresh_age_seconds', { venue: 'hyperliquid' }),
    ).toBe(4);
    deadMan.answer = { refuse: 'too many triggers today' };
    await jest.advanceTimersByTimeAsync(1_000);
    expect(await gauge('armed')).toBe(0);
    expect(await gauge('unavailable')).toBe(1);
  });
});
