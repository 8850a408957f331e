import { PeriodicTask } from './periodic-task';
import { backoffDelay, retryWithBackoff } from './retry-with-backoff';
import { sleep } from './sleep';
import { TimeoutError, withTimeout } from './with-timeout';

/** A promise the test settles by hand. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Whether the promise has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await jest.advanceTimersByTimeAsync(0);
  return done;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('sleep', () => {
  it('resolves after the time and not before', async () => {
    const slept = sleep(100);
    await jest.advanceTimersByTimeAsync(99);
    expect(await settled(slept)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(slept)).toBe(true);
  });

  it('rejects with the reason as soon as its signal aborts', async () => {
    const controller = new AbortController();
    const slept = sleep(10_000, controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(slept).rejects.toThrow('shutting down');
    await expect(sleep(1, controller.signal)).rejects.toThrow('shutting down');
  });
});

describe('withTimeout', () => {
  it('rejects with a TimeoutError carrying the time once the work outlasts it', async () => {
    const outcome = withTimeout(new Promise(() => undefined), 50).catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(49);
    expect(await settled(outcome)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ ms: 50, message: 'timed out after 50 ms' });
  });

  it('settles as the work does when it is in time, and leaves no timer behind', async () => {
    await expect(withTimeout(() => Promise.resolve('done'), 50)).resolves.toBe('done');
    await expect(withTimeout(Promise.reject(new Error('venue down')), 50)).rejects.toThrow(
      'venue down',
    );
    expect(jest.getTimerCount()).toBe(0);
  });

  it('takes a message of its own', async () => {
    const outcome = withTimeout(new Promise(() => undefined), 5, { message: 'pre-flight' });
    const caught = outcome.catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(5);
    expect(await caught).toMatchObject({ message: 'pre-flight', ms: 5 });
  });
});

describe('retryWithBackoff', () => {
  it('waits base * factor^n, capped, between attempts and stops at the first success', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = retryWithBackoff(
      async (attempt) => {
        calls += 1;
        if (attempt < 5) {
          throw new Error(`attempt ${attempt}`);
        }
        return attempt;
      },
      {
        attempts: 6,
        baseDelayMs: 100,
        maxDelayMs: 500,
        factor: 3,
        onRetry: ({ delayMs }) => waits.push(delayMs),
      },
    );
    await jest.advanceTimersByTimeAsync(100 + 300 + 500 + 500);
    await expect(result).resolves.toBe(5);
    expect(waits).toEqual([100, 300, 500, 500]);
    expect(calls).toBe(5);
  });

  it('does not start the next attempt before its wait is over', async () => {
    let calls = 0;
    const result = retryWithBackoff(
      async () => {
        calls += 1;
        throw new Error('no');
      },
      { attempts: 2, baseDelayMs: 1_000 },
    ).catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    expect(await result).toEqual(new Error('no'));
  });

  it('rethrows the last error once the attempts are spent', async () => {
    let calls = 0;
    const result = retryWithBackoff(
      async (attempt) => {
        calls += 1;
        throw new Error(`attempt ${attempt}`);
      },
      { attempts: 3, baseDelayMs: 10 },
    ).catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(await result).toEqual(new Error('attempt 3'));
    expect(calls).toBe(3);
  });

  it('rethrows at once an error the predicate does not retry', async () => {
    let calls = 0;
    const result = retryWithBackoff(
      async () => {
        calls += 1;
        throw new Error('rejected');
      },
      { attempts: 5, baseDelayMs: 10, retryIf: (error) => (error as Error).message !== 'rejected' },
    );
    await expect(result).rejects.toThrow('rejected');
    expect(calls).toBe(1);
  });

  it('shortens each wait by the jitter share', async () => {
    const waits: number[] = [];
    const result = retryWithBackoff(
      async (attempt) => {
        if (attempt < 3) {
          throw new Error('again');
        }
      },
      {
        attempts: 3,
        baseDelayMs: 100,
        jitter: 0.5,
        random: () => 1,
        onRetry: ({ delayMs }) => waits.push(delayMs),
      },
    );
    await jest.advanceTimersByTimeAsync(150);
    await result;
    expect(waits).toEqual([50, 100]);
  });

  it('stops waiting when its signal aborts', async () => {
    const controller = new AbortController();
    let calls = 0;
    const result = retryWithBackoff(
      async () => {
        calls += 1;
        throw new Error('down');
      },
      { attempts: 10, baseDelayMs: 10_000, signal: controller.signal },
    );
    await jest.advanceTimersByTimeAsync(0);
    controller.abort(new Error('stop'));
    await expect(result).rejects.toThrow('stop');
    expect(calls).toBe(1);
  });

  it('computes the backoff with a factor of 2 by default', () => {
    expect([1, 2, 3].map((attempt) => backoffDelay(attempt, { baseDelayMs: 10 }))).toEqual([
      10, 20, 40,
    ]);
  });
});

describe('PeriodicTask', () => {
  it('never runs twice at once: a slow run delays the next one', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const task = new PeriodicTask(
      async () => {
        runs += 1;
        running += 1;
        most = Math.max(most, running);
        await sleep(250);
        running -= 1;
      },
      { intervalMs: 100, runAtStart: true },
    );
    task.start();
    await jest.advanceTimersByTimeAsync(1_000);
    await task.stop();
    expect(most).toBe(1);
    // Each cycle is a 250 ms run then a 100 ms pause: runs start at 0, 350 and 700.
    expect(runs).toBe(3);
  });

  it('stop waits for the run in flight and arms no other', async () => {
    const gate = deferred();
    let runs = 0;
    const task = new PeriodicTask(
      async () => {
        runs += 1;
        await gate.promise;
      },
      { intervalMs: 10 },
    );
    task.start();
    await jest.advanceTimersByTimeAsync(10);
    expect(runs).toBe(1);
    const stopped = task.stop();
    expect(await settled(stopped)).toBe(false);
    gate.resolve();
    expect(await settled(stopped)).toBe(true);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('goes on after a run that throws, reporting the error', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const task = new PeriodicTask(
      () => {
        runs += 1;
        throw new Error(`run ${runs}`);
      },
      { intervalMs: 10, onError: (error) => errors.push(error) },
    );
    task.start();
    await jest.advanceTimersByTimeAsync(35);
    await task.stop();
    expect(runs).toBe(3);
    expect(errors).toEqual([new Error('run 1'), new Error('run 2'), new Error('run 3')]);
  });

  it('restarted while a run is in flight, starts no second run beside it', async () => {
    const gate = deferred();
    let running = 0;
    let most = 0;
    const task = new PeriodicTask(
      async () => {
        running += 1;
        most = Math.max(most, running);
        await gate.promise;
        running -= 1;
      },
      { intervalMs: 10, runAtStart: true },
    );
    task.start();
    void task.stop();
    task.start();
    await jest.advanceTimersByTimeAsync(50);
    expect(most).toBe(1);
    gate.resolve();
    await task.stop();
  });
});
