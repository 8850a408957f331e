import { randomUUID } from 'node:crypto';
import { connectRedis, type Redis } from '@sts/platform';
import type { AccountTerms } from '@sts/budget-store';
import { testNamespace } from '@sts/testing';
import { BudgetRepository } from './budget.repository';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('BudgetRepository.readTrade (real Redis)', () => {
  const ns = testNamespace();
  let redis: Redis;
  let repository: BudgetRepository;
  const account: AccountTerms = {
    venue: 'lighter',
    wallet: `0x${randomUUID().replace(/-/g, '')}`,
    limit: 40,
    min: 4,
    venueLimit: null,
    venueMin: 240,
    egress: 'default',
  };

  beforeAll(async () => {
    redis = connectRedis(REDIS_URL, ns.redisPrefix);
    await new Promise((resolve) => redis.once('ready', resolve));
    repository = new BudgetRepository(redis);
    expect(await repository.rebuild({ accounts: [], trades: [] }, Date.now())).toBe('rebuilt');
  });

  afterAll(async () => {
    const keys = await redis.keys(`${ns.redisPrefix}*`);
    if (keys.length > 0) {
      await redis.del(...keys.map((key) => key.slice(ns.redisPrefix.length)));
    }
    redis.disconnect();
  });

  it('answers not_found for a trade released between reading it and reading its shares', async () => {
    const [leaving, staying] = [randomUUID(), randomUUID()];
    for (const tradeId of [leaving, staying]) {
      expect((await repository.reserve(tradeId, account, null, Date.now(), false)).kind).toBe(
        'granted',
      );
    }
    // The release lands after readTrade found the trade, before it reads the
    // shares: the account's share has grown to 40 at the release's version.
    const releasing = new BudgetRepository(redis);
    const racing = new Proxy(redis, {
      get(target, property, receiver) {
        if (property !== 'multi') {
          return Reflect.get(target, property, receiver);
        }
        return (commands?: unknown[][]) => {
          if (!commands?.some((command) => command.includes('share'))) {
            return commands ? target.multi(commands) : target.multi();
          }
          return {
            exec: async () => {
              expect((await releasing.release(leaving)).kind).toBe('released');
              return target.multi(commands).exec();
            },
          };
        };
      },
    });
    const lookup = await new BudgetRepository(racing).readTrade(leaving);
    expect(lookup).toEqual({ kind: 'not_found' });
    expect(await repository.readTrade(staying)).toEqual(
      expect.objectContaining({ kind: 'found', maker: expect.objectContaining({ share: 40 }) }),
    );
  });
});
