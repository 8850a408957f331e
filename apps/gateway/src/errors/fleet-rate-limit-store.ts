import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from '@sts/platform';

type Counted = { current: number; ttl: number };
type Answer = (error: Error | null, result?: Counted) => void;

/** What the store reports as it leaves and regains the shared count. */
export interface FleetCountWatcher {
  sharedLost(error: Error): void;
  sharedRegained(): void;
  countedLocally(): void;
}

/**
 * One fixed window per caller, shared by every replica: INCRBY the requests
 * counted at once, and the window's expiry set by the count that opens it. A
 * key that lost its expiry (never expected) gets it back rather than counting
 * forever.
 */
const FIXED_WINDOW = `
local counted = tonumber(ARGV[2])
local current = redis.call('INCRBY', KEYS[1], counted)
if current == counted then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

/** The pipeline of one turn's counts, with the window script defined on it. */
type CountPipeline = ReturnType<Redis['pipeline']> & {
  rateLimitWindow(key: string, windowMs: number, counted: number): CountPipeline;
};

/** A Redis that does not answer within this is treated as down: the limiter must not slow the API. */
const SHARED_ANSWER_MS = 250;
/** After a failure, Redis is tried again this much later; meanwhile every request counts locally. */
const SHARED_RETRY_MS = 1000;

/**
 * The per-replica count used while Redis is away: the same fixed window, in
 * memory. Windows that ended are dropped as new ones open, so a flood of
 * one-off callers (IPs) cannot grow it past one window's worth.
 */
class LocalWindows {
  private windows = new Map<string, { count: number; endsAt: number }>();
  private sweptAt = 0;

  constructor(private readonly windowMs: number) {}

  count(key: string, now: number): Counted {
    if (now - this.sweptAt >= this.windowMs) {
      this.sweptAt = now;
      for (const [held, window] of this.windows) {
        if (window.endsAt <= now) {
          this.windows.delete(held);
        }
      }
    }
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { current: window.count, ttl: window.endsAt - now };
  }
}

/**
 * The gateway's request count, kept in Redis so every replica counts against
 * one limit per caller (a fleet of N gateways would otherwise allow N times
 * the limit). The requests that arrive in one turn of the event loop are
 * counted in one pipeline, a caller's together in one INCRBY: each request
 * still takes its own place in its caller's window (its count, and the
 * headers and refusal that follow from it, are what one INCR each would
 * give), for one script per caller and one write per turn. When Redis fails
 * or is slow, requests are counted per replica instead (still limited, by
 * each replica alone) until Redis answers again: an outage of the limiter's
 * store neither stops the API nor lifts the limit.
 */
export class FleetRateLimitStore implements FastifyRateLimitStore {
  private readonly local: LocalWindows;
  private sharedBackAt = 0;
  private sharedDown = false;
  /** This turn's requests, by caller, in arrival order; sent as the turn ends. */
  private waiting = new Map<string, Answer[]>();

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly windowMs: number,
    private readonly watcher: FleetCountWatcher,
  ) {
    this.local = new LocalWindows(windowMs);
    if (!('rateLimitWindow' in redis)) {
      redis.defineCommand('rateLimitWindow', { numberOfKeys: 1, lua: FIXED_WINDOW });
    }
  }

  incr(key: string, answer: Answer): void {
    if (Date.now() < this.sharedBackAt) {
      this.countLocally(key, answer);
      return;
    }
    if (this.waiting.size === 0) {
      setImmediate(this.sendWaiting);
    }
    const answers = this.waiting.get(key);
    if (answers) {
      answers.push(answer);
    } else {
      this.waiting.set(key, [answer]);
    }
  }

  /** Routes share the one count per caller (no route sets its own limit). */
  child(): FastifyRateLimitStore {
    return this;
  }

  /** The turn's counts in one pipeline; each caller's answers take consecutive places. */
  private readonly sendWaiting = (): void => {
    const turn = this.waiting;
    this.waiting = new Map();
    const pipeline = this.redis.pipeline() as CountPipeline;
    for (const [key, answers] of turn) {
      pipeline.rateLimitWindow(`${this.keyPrefix}${key}`, this.windowMs, answers.length);
    }
    this.withinAnswerTime(pipeline.exec()).then(
      (results) => {
        let index = 0;
        for (const [key, answers] of turn) {
          const [error, counted] = results?.[index++] ?? [new Error('no answer in the pipeline')];
          if (error) {
            this.sharedFailed(error, key, answers);
          } else {
            this.sharedAnswered(counted as [number, number], answers);
          }
        }
      },
      (error: Error) => {
        for (const [key, answers] of turn) {
          this.sharedFailed(error, key, answers);
        }
      },
    );
  };

  private sharedAnswered([current, ttl]: [number, number], answers: Answer[]): void {
    if (this.sharedDown) {
      this.sharedDown = false;
      this.watcher.sharedRegained();
    }
    const first = current - answers.length + 1;
    answers.forEach((answer, place) => answer(null, { current: first + place, ttl }));
  }

  private sharedFailed(error: Error, key: string, answers: Answer[]): void {
    this.sharedBackAt = Date.now() + SHARED_RETRY_MS;
    if (!this.sharedDown) {
      this.sharedDown = true;
      this.watcher.sharedLost(error);
    }
    for (const answer of answers) {
      this.countLocally(key, answer);
    }
  }

  private async withinAnswerTime<T>(answered: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      // Timers run before I/O in the event loop: after a busy stretch, an answer already read
      // off the socket settles the race first if the refusal waits one turn (setImmediate).
      timer = setTimeout(
        () =>
          setImmediate(() => reject(new Error(`no answer from Redis in ${SHARED_ANSWER_MS} ms`))),
        SHARED_ANSWER_MS,
      );
    });
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private countLocally(key: string, answer: Answer): void {
    this.watcher.countedLocally();
    answer(null, this.local.count(key, Date.now()));
  }
}
