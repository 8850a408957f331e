import type { RequoteUrgency } from '@sts/domain';
import type { MonotonicClock } from '../clock';
import { StepScheduler } from './step-scheduler';

/**
 * The scheduler on a hand-moved clock: which woken steps run inside a burst,
 * in what order, and what waits for the next I/O turn.
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

function harness(stepMs = 0.5) {
  const clock = new StepClock();
  const scheduler = new StepScheduler(clock);
  const ran: string[] = [];
  const step = (name: string) => (): void => {
    ran.push(name);
    clock.ms += stepMs;
  };
  const steps = new Map<string, () => void>();
  const wake = (name: string, urgency: RequoteUrgency): void => {
    if (!steps.has(name)) {
      steps.set(name, step(name));
    }
    scheduler.schedule(steps.get(name)!, urgency);
  };
  return { clock, scheduler, ran, wake };
}

describe('StepScheduler', () => {
  it('runs a burst at_risk steps as they are woken, then off_touch, then routine', () => {
    const { scheduler, ran, wake } = harness();
    scheduler.burst(() => {
      wake('a-routine', 'routine');
      wake('b-off', 'off_touch');
      wake('c-risk', 'at_risk');
      wake('d-routine', 'routine');
      wake('e-risk', 'at_risk');
      wake('f-off', 'off_touch');
    });
    expect(ran).toEqual(['c-risk', 'e-risk', 'b-off', 'f-off', 'a-routine', 'd-routine']);
  });

  it('queues what the burst slice leaves by urgency, and drains the most urgent first', async () => {
    // 2 ms a step: the 5 ms burst slice holds three steps.
    const { scheduler, ran, wake } = harness(2);
    scheduler.burst(() => {
      wake('r1', 'routine');
      wake('r2', 'routine');
      wake('o1', 'off_touch');
      wake('k1', 'at_risk');
      wake('k2', 'at_risk');
      wake('k3', 'at_risk');
      wake('k4', 'at_risk');
      wake('o2', 'off_touch');
    });
    expect(ran).toEqual(['k1', 'k2', 'k3']);
    expect(scheduler.size).toBe(5);
    for (let turn = 0; turn < 5 && scheduler.size > 0; turn += 1) {
      await nextTurn();
    }
    expect(ran).toEqual(['k1', 'k2', 'k3', 'k4', 'o1', 'o2', 'r1', 'r2']);
    expect(scheduler.size).toBe(0);
  });

  it('moves a queued step up when it is woken more urgently, never down', async () => {
    const { clock, scheduler, ran, wake } = harness();
    // A slice already used up: everything woken now waits for the drain.
    scheduler.schedule(() => (clock.ms += 10));
    wake('first', 'routine');
    wake('second', 'routine');
    wake('third', 'off_touch');
    wake('second', 'at_risk');
    wake('third', 'routine');
    await nextTurn();
    await nextTurn();
    expect(ran).toEqual(['second', 'third', 'first']);
  });

  it('queues the steps a fan-out deferred when the fan-out throws', async () => {
    const { scheduler, ran, wake } = harness();
    expect(() =>
      scheduler.burst(() => {
        wake('deferred', 'routine');
        throw new Error('feed broke');
      }),
    ).toThrow('feed broke');
    expect(ran).toEqual([]);
    await nextTurn();
    await nextTurn();
    expect(ran).toEqual(['deferred']);
  });

  it('runs a step at once outside a burst when nothing waits and the slice has time', () => {
    const { scheduler, ran, wake } = harness();
    wake('now', 'routine');
    expect(ran).toEqual(['now']);
    expect(scheduler.size).toBe(0);
  });
});
