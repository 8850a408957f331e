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
 * One fixed window per caller, shared by every replica: INCR, and the window's
 * expiry set by the request that opens it. A key that lost its expiry (never
 * expected) gets it back rather than counting forever.
 */
const FIXED_WINDOW = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

type FleetRedis = Redis & {
  rateLimitWindow(key: string, windowMs: number): Promise<[number, number]>;
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
 * the limit). When Redis fails or is slow, requests are counted per replica
 * instead (still limited, by each replica alone) until Redis answers again:
 * an outage of the limiter's store neither stops the API nor lifts the limit.
 */
export class FleetRateLimitStore implements FastifyRateLimitStore {
  private readonly local: LocalWindows;
  private sharedBackAt = 0;
  private sharedDown = false;

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
    const now = Date.now();
    if (now < this.sharedBackAt) {
      this.countLocally(key, now, answer);
      return;
    }
    this.countShared(key).then(
      (counted) => {
        if (this.sharedDown) {
          this.sharedDown = false;
          this.watcher.sharedRegained();
        }
        answer(null, counted);
      },
      (error: Error) => {
        this.sharedBackAt = Date.now() + SHARED_RETRY_MS;
        if (!this.sharedDown) {
          this.sharedDown = true;
          this.watcher.sharedLost(error);
        }
        this.countLocally(key, Date.now(), answer);
      },
    );
  }

  /** Routes share the one count per caller (no route sets its own limit). */
  child(): FastifyRateLimitStore {
    return this;
  }

  private async countShared(key: string): Promise<Counted> {
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
      const [current, ttl] = await Promise.race([
        (this.redis as FleetRedis).rateLimitWindow(`${this.keyPrefix}${key}`, this.windowMs),
        late,
      ]);
      return { current, ttl };
    } finally {
      clearTimeout(timer);
    }
  }

  private countLocally(key: string, now: number, answer: Answer): void {
    this.watcher.countedLocally();
    answer(null, this.local.count(key, now));
  }
}
