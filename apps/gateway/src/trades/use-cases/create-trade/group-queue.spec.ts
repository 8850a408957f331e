import { GroupQueue, type Settled } from './group-queue';

/**
 * The grouping on its own: which items run together, and when. The creates'
 * guarantees over these groups are the HTTP specs' (create-groups.e2e).
 */

interface Item {
  name: string;
  key: string;
}

/** Lets the current turn end (the queue starts its groups then). */
const turnEnds = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function harness(inFlight: number, maxSize = 32, overlapMin = 1, overlapAfterMs = 60_000) {
  const runs: string[][] = [];
  const holds: Array<() => void> = [];
  /** When set, each run waits until released (`release`), as a group waits on Postgres. */
  let holding = false;
  const queue = new GroupQueue<Item, string>(
    async (group) => {
      runs.push(group.map((item) => item.name));
      if (holding) {
        await new Promise<void>((resolve) => holds.push(resolve));
      }
      return group.map((item) => ({ answer: `done ${item.name}` }));
    },
    (item) => [item.key],
    { inFlight, maxSize, overlapMin, overlapAfterMs },
  );
  const submit = (name: string, key = name): Promise<Settled<string>> =>
    queue.submit({ name, key });
  return {
    queue,
    runs,
    submit,
    hold: () => (holding = true),
    release: () => holds.splice(0).forEach((resolve) => resolve()),
  };
}

describe('GroupQueue', () => {
  it('starts the items one turn brings as one group, though a run was free for the first', async () => {
    const { runs, submit } = harness(2);
    const answers = Promise.all([submit('a'), submit('b'), submit('c')]);
    expect(runs).toEqual([]);
    await turnEnds();
    expect(runs).toEqual([['a', 'b', 'c']]);
    expect(await answers).toEqual([
      { answer: 'done a' },
      { answer: 'done b' },
      { answer: 'done c' },
    ]);
  });

  it('keeps one item per key in a group and the rest, in order, for the next', async () => {
    const { runs, submit } = harness(1);
    const answers = Promise.all([submit('a', 'k1'), submit('b', 'k1'), submit('c', 'k2')]);
    await answers;
    expect(runs).toEqual([['a', 'c'], ['b']]);
  });

  it('runs no more groups at once than allowed; what waits meanwhile forms the next', async () => {
    const { runs, submit, hold, release } = harness(1);
    hold();
    const first = submit('a');
    await turnEnds();
    const waiting = [submit('b'), submit('c')];
    await turnEnds();
    expect(runs).toEqual([['a']]);
    release();
    await first;
    await turnEnds();
    release();
    await Promise.all(waiting);
    expect(runs).toEqual([['a'], ['b', 'c']]);
  });

  it('starts a group beside a running one only once enough items wait', async () => {
    const { runs, submit, hold, release } = harness(2, 32, 3);
    hold();
    const all = [submit('a')];
    await turnEnds();
    all.push(submit('b'), submit('c'));
    await turnEnds();
    expect(runs).toEqual([['a']]);
    all.push(submit('d'));
    await turnEnds();
    expect(runs).toEqual([['a'], ['b', 'c', 'd']]);
    release();
    await Promise.all(all);
  });

  it('starts what waits, however few, when the running group ends', async () => {
    const { runs, submit, hold, release } = harness(2, 32, 3);
    hold();
    const first = submit('a');
    await turnEnds();
    const second = submit('b');
    await turnEnds();
    expect(runs).toEqual([['a']]);
    release();
    await first;
    expect(runs).toEqual([['a'], ['b']]);
    release();
    await second;
  });

  it('holds back what waits for a running group only so long after it started', async () => {
    const { runs, submit, hold, release } = harness(2, 32, 3, 30);
    hold();
    const all = [submit('a')];
    await turnEnds();
    all.push(submit('b'));
    await turnEnds();
    expect(runs).toEqual([['a']]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(runs).toEqual([['a'], ['b']]);
    release();
    await Promise.all(all);
  });

  it('caps a group at its largest size', async () => {
    const { runs, submit } = harness(1, 2);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => submit(name)));
    expect(runs).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('settles every item of a group whose run fails with its error', async () => {
    const failure = new Error('connection lost');
    const queue = new GroupQueue<Item, string>(
      () => Promise.reject(failure),
      (item) => [item.key],
      { inFlight: 2, maxSize: 32, overlapMin: 1, overlapAfterMs: 0 },
    );
    const settled = await Promise.all([
      queue.submit({ name: 'a', key: 'a' }),
      queue.submit({ name: 'b', key: 'b' }),
    ]);
    expect(settled).toEqual([{ error: failure }, { error: failure }]);
  });

  it('answers an item still waiting at its deadline with its error, and never runs it', async () => {
    const holds: Array<() => void> = [];
    const runs: string[][] = [];
    const queue = new GroupQueue<Item & { deadline: number }, string>(
      async (group) => {
        runs.push(group.map((item) => item.name));
        await new Promise<void>((resolve) => holds.push(resolve));
        return group.map((item) => ({ answer: `done ${item.name}` }));
      },
      (item) => [item.key],
      { inFlight: 1, maxSize: 32, overlapMin: 1, overlapAfterMs: 0 },
      {
        expiry: {
          deadlineOf: (item) => item.deadline,
          expired: (item) => new Error(`${item.name} expired`),
        },
      },
    );
    const now = performance.now();
    const first = queue.submit({ name: 'a', key: 'k', deadline: now + 30 });
    await turnEnds();
    // Same key: it waits for the next group, held up behind the first run.
    const late = queue.submit({ name: 'b', key: 'k', deadline: now + 40 });
    const patient = queue.submit({ name: 'c', key: 'k', deadline: now + 60_000 });
    const answered = await late;
    expect(answered).toEqual({ error: new Error('b expired') });
    expect(queue.waitingCount).toBe(1);
    // The running item is past its deadline too: taken in time, it is not expired.
    holds.splice(0).forEach((resolve) => resolve());
    expect(await first).toEqual({ answer: 'done a' });
    await turnEnds();
    holds.splice(0).forEach((resolve) => resolve());
    expect(await patient).toEqual({ answer: 'done c' });
    expect(runs).toEqual([['a'], ['c']]);
  });
});
