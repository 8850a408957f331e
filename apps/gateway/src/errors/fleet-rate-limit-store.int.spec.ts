import { connectRedis, type Redis } from '@sts/platform';
import { testNamespace } from '@sts/testing';
import { FleetRateLimitStore } from './fleet-rate-limit-store';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const WINDOW_MS = 1000;

type Counted = { current: number; ttl: number };

/**
 * The counts of one turn of the event loop leave as one pipeline, a caller's
 * as one INCRBY. Over HTTP a burst's requests reach the gateway in one turn
 * or several as the machine decides; here the store is asked in one turn, on
 * purpose, so the merge is what is judged: each request must still take its
 * own place in its caller's window.
 */
describe('FleetRateLimitStore (real Redis)', () => {
  const ns = testNamespace();
  let redis: Redis;
  let store: FleetRateLimitStore;
  const lost: Error[] = [];
  let countedLocally = 0;

  beforeAll(async () => {
    redis = connectRedis(REDIS_URL, ns.redisPrefix);
    await new Promise((resolve) => redis.once('ready', resolve));
    store = new FleetRateLimitStore(redis, 'ratelimit:', WINDOW_MS, {
      sharedLost: (error) => lost.push(error),
      sharedRegained: () => undefined,
      countedLocally: () => (countedLocally += 1),
    });
  });

  // The windows' keys expire with their second: nothing to clean up.
  afterAll(() => redis.disconnect());

  /** Asks for every key's counts in this one turn; answers them in the order asked. */
  function countInOneTurn(keys: string[]): Promise<Counted[]> {
    return Promise.all(
      keys.map(
        (key) =>
          new Promise<Counted>((resolve, reject) =>
            store.incr(key, (error, counted) =>
              error || !counted ? reject(error ?? new Error('no count')) : resolve(counted),
            ),
          ),
      ),
    );
  }

  it('gives each request of a turn its own place in its caller’s window, callers apart', async () => {
    const keys = ['key:a', 'key:b', 'key:a', 'key:a', 'key:b', 'key:a'];
    const counted = await countInOneTurn(keys);

    const placesOf = (key: string) =>
      counted.filter((_, index) => keys[index] === key).map((count) => count.current);
    expect(placesOf('key:a')).toEqual([1, 2, 3, 4]);
    expect(placesOf('key:b')).toEqual([1, 2]);
    for (const { ttl } of counted) {
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(WINDOW_MS);
    }
    // The fleet's count is the requests', and the window the batch opened expires.
    expect(await redis.get('ratelimit:key:a')).toBe('4');
    expect(await redis.pttl('ratelimit:key:a')).toBeGreaterThan(0);

    const [next] = await countInOneTurn(['key:a']);
    expect(next?.current).toBe(5);
    expect(lost).toEqual([]);
    expect(countedLocally).toBe(0);
  });
});
