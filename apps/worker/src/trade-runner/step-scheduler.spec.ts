import type { RequoteUrgency } from '@sts/domain';
import type { MonotonicClock } from '../clock';
import { StepScheduler } from './step-scheduler';

/**
 * The scheduler on a hand-moved clock: which woken steps run inside a burst
 * (in wake order, never ranked), which wait for a later I/O turn, and in
 * what order those run.
 */

/** A clock each step advances by the time it "takes". */
class StepClock implements MonotonicClock {
  ms = 0;
  now(): number {
    return this.ms;
  }
}

/** Lets setImmediate callbacks (slice ends, drains) run. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function drainAll(scheduler: StepScheduler): Promise<void> {
  for (let turn = 0; turn < 20 && scheduler.queued > 0; turn += 1) {
    await nextTurn();
  }
}

function harness(stepMs = 0.5) {
  const clock = new StepClock();
  const scheduler = new StepScheduler(clock);
  const ran: string[] = [];
  const ranked: string[] = [];
  const steps = new Map<string, () => void>();
  const stepOf = (name: string): (() => void) => {
    let step = steps.get(name);
    if (!step) {
      step = () => {
        ran.push(name);
        clock.ms += stepMs;
      };
      steps.set(name, step);
    }
    return step;
  };
  /** A step woken by a book move that made it `urgency`. */
  const wake = (name: string, urgency: RequoteUrgency): void =>
    scheduler.schedule(stepOf(name), () => {
      ranked.push(name);
      return urgency;
    });
  /** A follow-up (an answer, a timer): no rank. */
  const followUp = (name: string): void => scheduler.schedule(stepOf(name));
  /** Uses up the current slice (5 ms, a burst's): whatever is woken next waits for a drain. */
  const busy = (): void => scheduler.schedule(() => (clock.ms += 5));
  /** A maker fill's step: after the turn's reads. */
  const afterFill = (name: string): void => scheduler.scheduleAfterReads(stepOf(name));
  return { clock, scheduler, ran, ranked, wake, followUp, busy, afterFill };
}

describe('StepScheduler', () => {
  it('runs the steps a burst slice holds in wake order and ranks none of them', () => {
    const { scheduler, ran, ranked, wake } = harness();
    scheduler.burst(() => {
      wake('a-routine', 'routine');
      wake('b-off', 'off_touch');
      wake('c-risk', 'at_risk');
    });
    expect(ran).toEqual(['a-routine', 'b-off', 'c-risk']);
    expect(ranked).toEqual([]);
  });

  it('ranks only what the burst slice cannot hold, and drains it most urgent first', async () => {
    // 2 ms a step: the 5 ms burst slice holds three steps.
    const { scheduler, ran, ranked, wake } = harness(2);
    scheduler.burst(() => {
      wake('r1', 'routine');
      wake('o1', 'off_touch');
      wake('k1', 'at_risk');
      wake('r2', 'routine');
      wake('o2', 'off_touch');
      wake('k2', 'at_risk');
      wake('k3', 'at_risk');
    });
    expect(ran).toEqual(['r1', 'o1', 'k1']);
    expect(ranked).toEqual(['r2', 'o2', 'k2', 'k3']);
    expect(scheduler.queued).toBe(4);
    await drainAll(scheduler);
    expect(ran).toEqual(['r1', 'o1', 'k1', 'k2', 'k3', 'o2', 'r2']);
    expect(scheduler.queued).toBe(0);
  });

  it('puts the steps a move made wrong ahead of follow-ups queued before them', async () => {
    const { scheduler, ran, wake, followUp, busy } = harness();
    busy();
    followUp('answer');
    followUp('timer');
    scheduler.burst(() => {
      busy();
      wake('moved-routine', 'routine');
      wake('moved-risk', 'at_risk');
    });
    await drainAll(scheduler);
    expect(ran).toEqual(['moved-risk', 'answer', 'timer', 'moved-routine']);
  });

  it('moves a waiting step up when a later move makes it more urgent, never down', async () => {
    const { scheduler, ran, wake, followUp, busy } = harness();
    busy();
    followUp('first');
    wake('second', 'routine');
    wake('third', 'off_touch');
    wake('second', 'at_risk');
    wake('third', 'routine');
    followUp('third');
    await drainAll(scheduler);
    expect(ran).toEqual(['second', 'third', 'first']);
  });

  it('runs a step that has waited 10 ms before more urgent ones queued after it', async () => {
    // 2 ms a step: a 3 ms drain slice runs two, so the at_risk queue outlasts 10 ms.
    const { clock, scheduler, ran, wake, followUp, busy } = harness(2);
    busy();
    followUp('answer');
    clock.ms += 1;
    const atRisk = Array.from({ length: 12 }, (_, i) => `k${i + 1}`);
    for (const name of atRisk) {
      wake(name, 'at_risk');
    }
    await drainAll(scheduler);
    // Queued at 5 ms, overdue at 15: five at_risk steps of 2 ms ran by then.
    expect(ran).toEqual([...atRisk.slice(0, 5), 'answer', ...atRisk.slice(5)]);
  });

  it('runs a step at once outside a burst when nothing waits and the slice has time', () => {
    const { scheduler, ran, ranked, wake } = harness();
    wake('now', 'routine');
    expect(ran).toEqual(['now']);
    expect(ranked).toEqual([]);
    expect(scheduler.queued).toBe(0);
  });

  it("holds a fill's step until the turn's reads are served, with the follow-ups woken after it", async () => {
    const { scheduler, ran, followUp, afterFill } = harness();
    afterFill('fill-a');
    afterFill('fill-a');
    followUp('answer');
    afterFill('fill-b');
    expect(ran).toEqual([]);
    expect(scheduler.queued).toBe(3);
    await drainAll(scheduler);
    expect(ran).toEqual(['fill-a', 'answer', 'fill-b']);
  });

  it("runs a book move's burst in its slice while a fill's step waits", async () => {
    const { scheduler, ran, wake, afterFill } = harness();
    afterFill('fill');
    scheduler.burst(() => wake('moved', 'at_risk'));
    expect(ran).toEqual(['moved']);
    await drainAll(scheduler);
    expect(ran).toEqual(['moved', 'fill']);
  });

  it('queues each step once, however often it is woken', async () => {
    const { scheduler, ran, wake, followUp, busy } = harness();
    busy();
    followUp('once');
    followUp('once');
    wake('once', 'routine');
    expect(scheduler.queued).toBe(1);
    await drainAll(scheduler);
    expect(ran).toEqual(['once']);
  });
});
