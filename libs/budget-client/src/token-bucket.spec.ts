import { BucketClosedError, TokenBucket, type BucketClock } from './token-bucket';

/** A clock that moves only when the spec says so, firing due timers in order. */
class ManualClock implements BucketClock {
  private current = 1_000;
  private timers: Array<{ at: number; fire: () => void; id: number }> = [];
  private nextId = 0;

  now(): number {
    return this.current;
  }

  schedule(ms: number, fire: () => void): () => void {
    const id = this.nextId++;
    this.timers.push({ at: this.current + ms, fire, id });
    return () => {
      this.timers = this.timers.filter((timer) => timer.id !== id);
    };
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward ms by ms so every timer fires at its own instant. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const due = this.timers[0];
      if (!due || due.at > end) {
        break;
      }
      this.timers.shift();
      this.current = Math.max(this.current, due.at);
      due.fire();
      await flushPromises();
    }
    this.current = end;
    await flushPromises();
  }
}

const flushPromises = async (): Promise<void> => {
  for (let i = 0; i < 5; i += 1) {
    await Promise.resolve();
  }
};

/** Takes as fast as the bucket allows over `ms`, recording when each take succeeded. */
async function drain(bucket: TokenBucket, clock: ManualClock, ms: number): Promise<number[]> {
  const takes: number[] = [];
  const end = clock.now() + ms;
  while (clock.now() < end) {
    if (bucket.take()) {
      takes.push(clock.now());
    } else {
      await clock.advance(1);
    }
  }
  return takes;
}

const maxInAnyWindow = (times: number[], windowMs: number): number => {
  let best = 0;
  for (let i = 0; i < times.length; i += 1) {
    let count = 0;
    for (let j = i; j < times.length && times[j]! < times[i]! + windowMs; j += 1) {
      count += 1;
    }
    best = Math.max(best, count);
  }
  return best;
};

describe('TokenBucket', () => {
  it('by default keeps a transit margin: requests delayed up to 100 ms never put a venue second over the rate', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(4, { clock });
    const sent = await drain(bucket, clock, 10_000);
    expect(maxInAnyWindow(sent, 1100)).toBe(4);
    // The venue counts by arrival: the worst case is the first request of a run
    // delayed by the whole margin while the others arrive at once.
    for (let first = 0; first + 4 < sent.length; first += 1) {
      const delayedFirst = sent[first]! + 99;
      const lastOnTime = sent[first + 4]!;
      expect(lastOnTime - delayedFirst).toBeGreaterThanOrEqual(1000);
    }
  });

  it('admits exactly the rate per second and never more in any one-second window', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(7, { windowMs: 1000, clock });
    const takes = await drain(bucket, clock, 5_000);
    expect(takes).toHaveLength(35);
    expect(maxInAnyWindow(takes, 1_000)).toBe(7);
  });

  it('paces takes at 1000/rate ms apart once the burst is spent', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(4, { windowMs: 1000, clock });
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    expect(bucket.msUntilAvailable()).toBe(250);
    await clock.advance(249);
    expect(bucket.take()).toBe(false);
    await clock.advance(1);
    expect(bucket.take()).toBe(true);
  });

  it('charges requests already sent into debt: the next ones wait it out, a closed bucket takes nothing', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(4, { windowMs: 1000, clock });
    expect(bucket.take()).toBe(true);
    const start = clock.now();
    const served: number[] = [];
    const waiting = bucket.waitFor().then(() => served.push(clock.now() - start));
    // Two reads sent meanwhile without a token: 3 requests' worth of wait for the next one.
    bucket.charge(2);
    expect(bucket.msUntilAvailable()).toBe(750);
    await clock.advance(749);
    expect(served).toEqual([]);
    await clock.advance(1);
    await waiting;
    expect(served).toEqual([750]);
    // Over any window the rate holds: 1 + 2 + 1 requests in 750 ms at 4/s with a burst of 1.
    bucket.close();
    expect(() => bucket.charge(1)).not.toThrow();
  });

  it('takes back a refund of tokens never spent: a debt first, never past the burst', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(4, { windowMs: 1000, clock });
    expect(bucket.take()).toBe(true);
    bucket.charge(2);
    expect(bucket.msUntilAvailable()).toBe(750);
    bucket.refund(1);
    expect(bucket.msUntilAvailable()).toBe(500);
    bucket.refund(5);
    // Back to one token, the burst: no store of refunds for a later burst.
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    bucket.close();
    expect(() => bucket.refund(1)).not.toThrow();
  });

  describe('with rate kept back for charges', () => {
    /**
     * Takes as fast as the bucket allows for 6 s while a read goes out unpaid
     * (charged after it was sent) 50 ms before the end of every second of the
     * run, after that second's takes: every request the venue would see.
     */
    async function sentWithReads(keptPerS: number, rate = 4): Promise<number[]> {
      const clock = new ManualClock();
      const bucket = new TokenBucket(rate, { clock });
      bucket.reserveForCharges(keptPerS);
      const start = clock.now();
      const sent: number[] = [];
      while (clock.now() < start + 6_000) {
        if ((clock.now() - start) % 1000 === 950) {
          sent.push(clock.now());
          bucket.charge(1);
        }
        if (bucket.take()) {
          sent.push(clock.now());
        } else {
          await clock.advance(1);
        }
      }
      return sent;
    }

    it('a read sent unpaid after a second of takes leaves every venue second within the rate', async () => {
      expect(maxInAnyWindow(await sentWithReads(1), 1000)).toBe(4);
      // Debt alone slows what follows a charge, not what went before it in the same second.
      expect(maxInAnyWindow(await sentWithReads(0), 1000)).toBe(5);
    });

    it('takes run at the rate less what is kept, reads paid from the kept part', async () => {
      const sent = await sentWithReads(1);
      const takes = sent.length - 6;
      // 3 a 1.1 s window for 6 s, less one: the read at 1.95 s came before the kept token did.
      expect(takes).toBeGreaterThanOrEqual(15);
      expect(takes).toBeLessThanOrEqual(17);
    });

    it('a kept token is taken once, then again a window later; nothing is kept without it', async () => {
      const clock = new ManualClock();
      const bucket = new TokenBucket(4, { windowMs: 1000, clock });
      expect(bucket.takeKept()).toBe(false);
      bucket.reserveForCharges(1);
      expect(bucket.takeKept()).toBe(true);
      expect(bucket.takeKept()).toBe(false);
      // Keeping the same again (a trade listening again) gives no token back.
      bucket.reserveForCharges(1);
      expect(bucket.takeKept()).toBe(false);
      await clock.advance(999);
      expect(bucket.takeKept()).toBe(false);
      await clock.advance(1);
      expect(bucket.takeKept()).toBe(true);
    });

    it('never keeps back the last request a second: at rate 1 takes go on', async () => {
      const clock = new ManualClock();
      const bucket = new TokenBucket(1, { windowMs: 1000, clock });
      bucket.reserveForCharges(1);
      expect(bucket.take()).toBe(true);
      expect(bucket.msUntilAvailable()).toBe(1000);
      bucket.setRate(3);
      bucket.take();
      // At 3 a second one is kept: the next take waits 1000 / 2 ms.
      expect(bucket.msUntilAvailable()).toBe(500);
    });
  });

  it('with a burst of b admits at most rate + b - 1 in a window', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(5, { windowMs: 1000, clock, burst: 3 });
    const takes = await drain(bucket, clock, 4_000);
    expect(maxInAnyWindow(takes, 1_000)).toBe(7);
  });

  it('waitFor resolves in arrival order as tokens accrue', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(10, { windowMs: 1000, clock });
    const order: string[] = [];
    const first = bucket.waitFor().then(() => order.push(`a@${clock.now()}`));
    const second = bucket.waitFor().then(() => order.push(`b@${clock.now()}`));
    const third = bucket.waitFor().then(() => order.push(`c@${clock.now()}`));
    await flushPromises();
    expect(order).toEqual(['a@1000']);
    // A caller that only takes cannot jump the queue.
    expect(bucket.take()).toBe(false);
    await clock.advance(100);
    expect(order).toEqual(['a@1000', 'b@1100']);
    await clock.advance(100);
    await Promise.all([first, second, third]);
    expect(order).toEqual(['a@1000', 'b@1100', 'c@1200']);
  });

  it('setRate applies at once to queued waiters: a smaller share slows them', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(10, { windowMs: 1000, clock });
    expect(bucket.take()).toBe(true);
    let served = false;
    const waiting = bucket.waitFor().then(() => (served = true));
    await clock.advance(50); // half a token earned at 10/s
    bucket.setRate(2); // the other half now takes 250 ms at 2/s
    await clock.advance(249);
    expect(served).toBe(false);
    await clock.advance(1);
    await waiting;
    expect(served).toBe(true);
  });

  it('with a growth delay, a larger share waits a window while a smaller one applies at once', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(2, { windowMs: 1000, growthDelayMs: 1000, clock });
    bucket.setRate(8);
    expect(bucket.rate).toBe(2);
    await clock.advance(999);
    expect(bucket.rate).toBe(2);
    await clock.advance(1);
    expect(bucket.rate).toBe(8);
    bucket.setRate(16);
    bucket.setRate(1); // shrinks at once and cancels the pending growth
    expect(bucket.rate).toBe(1);
    await clock.advance(2000);
    expect(bucket.rate).toBe(1);
  });

  it('at rate 0 waiters wait without a timer until budget arrives', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(0, { windowMs: 1000, clock, burst: 1 });
    expect(bucket.take()).toBe(true); // the initial token
    let served = false;
    const waiting = bucket.waitFor().then(() => (served = true));
    await clock.advance(60_000);
    expect(served).toBe(false);
    expect(clock.pendingTimers).toBe(0);
    expect(bucket.msUntilAvailable()).toBe(Infinity);
    bucket.setRate(5);
    await clock.advance(200);
    await waiting;
    expect(served).toBe(true);
  });

  it('an aborted waiter leaves the queue and the next one is served', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(10, { windowMs: 1000, clock });
    bucket.take();
    const controller = new AbortController();
    const aborted = bucket.waitFor(1, controller.signal);
    const next = bucket.waitFor();
    controller.abort(new Error('trade stopped'));
    await expect(aborted).rejects.toThrow('trade stopped');
    expect(bucket.waiting).toBe(1);
    await clock.advance(100);
    await expect(next).resolves.toBeUndefined();
    expect(bucket.waiting).toBe(0);
  });

  it('close rejects every waiter and later calls', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(1, { windowMs: 1000, clock });
    bucket.take();
    const waiting = bucket.waitFor();
    bucket.close('trade completed');
    await expect(waiting).rejects.toBeInstanceOf(BucketClosedError);
    expect(() => bucket.take()).toThrow(BucketClosedError);
    await expect(bucket.waitFor()).rejects.toThrow('trade completed');
    expect(clock.pendingTimers).toBe(0);
  });

  it('rejects fractional costs and negative or unbounded rates', () => {
    expect(() => new TokenBucket(-1)).toThrow(RangeError);
    expect(() => new TokenBucket(Number.NaN)).toThrow(RangeError);
    const bucket = new TokenBucket(5, { burst: 2 });
    expect(() => bucket.take(1.5)).toThrow(RangeError);
    expect(() => bucket.setRate(Infinity)).toThrow(RangeError);
    expect(() => bucket.setRate(-0.5)).toThrow(RangeError);
  });

  it('paces under one a second: two tokens held for a re-quote, no more than the pace a minute', async () => {
    const clock = new ManualClock();
    // 40 a minute, a Hyperliquid trade's share of its egress among 27.
    const bucket = new TokenBucket(40 / 60, { windowMs: 1000, clock, slowBurst: 2 });
    // A cancel and its placement go together.
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, false]);
    await clock.advance(1_490);
    expect(bucket.take()).toBe(false);
    await clock.advance(20);
    expect(bucket.take()).toBe(true);
    // Greedy for a minute: the pace and the burst's one token more, never more.
    let taken = 0;
    for (let ms = 0; ms < 60_000; ms += 10) {
      await clock.advance(10);
      taken += bucket.take() ? 1 : 0;
    }
    expect(taken).toBeGreaterThanOrEqual(39);
    expect(taken).toBeLessThanOrEqual(41);
  });

  it('holds the plain burst again once its rate is a second or more', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(0.5, { windowMs: 1000, clock, slowBurst: 2 });
    await clock.advance(10_000);
    bucket.setRate(3);
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
  });

  it('pays a cost above the burst in full before it goes, then paces the next', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(10, { windowMs: 1000, clock, burst: 1 });
    // A read the venue weighs at 5 tokens: more than the bucket ever holds at rest.
    expect(bucket.take(5)).toBe(false);
    let served = false;
    const read = bucket.waitFor(5).then(() => (served = true));
    await clock.advance(399);
    expect(served).toBe(false);
    await clock.advance(1);
    await read;
    // Everything saved went into it: the next request waits a full token.
    expect(bucket.take()).toBe(false);
    expect(bucket.msUntilAvailable()).toBe(100);
  });

  it('a cost of n takes n tokens', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(10, { windowMs: 1000, clock, burst: 4 });
    expect(bucket.take(4)).toBe(true);
    expect(bucket.msUntilAvailable(2)).toBe(200);
    const served = bucket.waitFor(2);
    await clock.advance(200);
    await expect(served).resolves.toBeUndefined();
  });

  it('works on the real clock', async () => {
    const bucket = new TokenBucket(50);
    const started = Date.now();
    for (let i = 0; i < 6; i += 1) {
      await bucket.waitFor();
    }
    // One initial token, then five more at 20 ms each.
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
  });
});
