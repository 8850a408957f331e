import { loadVenueRegistry } from '@sts/platform';
import { createTestDatabase, testNamespace, type TestDatabase } from '@sts/testing';
import { eventually } from '../test/budget-fixtures';
import { PrivateRedis } from '../test/private-redis';
import { startBudgetService, type BudgetService } from './bootstrap';
import { loadBudgetSettings } from './config/budget.settings';

/**
 * The budget service's readiness (what `/readyz` answers) follows its store:
 * not ready, naming Redis, while its Redis is down; ready again when it is
 * back; not ready from the moment it closes.
 */
describe('budget service readiness (private Redis, real NATS and Postgres)', () => {
  let redis: PrivateRedis;
  let db: TestDatabase;
  let service: BudgetService;
  let closed = false;
  const ns = testNamespace();

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    db = await createTestDatabase();
    service = await startBudgetService(
      loadBudgetSettings({
        DATABASE_URL: db.url,
        NATS_PREFIX: ns.natsPrefix,
        REDIS_URL: redis.url,
        REDIS_PREFIX: ns.redisPrefix,
        LOG_LEVEL: 'silent',
      }),
      { venues: loadVenueRegistry({}) },
    );
  });

  afterAll(async () => {
    if (!closed) {
      await service?.close();
    }
    await redis?.stop();
    await db?.drop();
  });

  it('is ready with NATS, Redis and Postgres up, not while Redis is down, and ready again after', async () => {
    expect(await service.readiness()).toEqual({
      ready: true,
      checks: { budget: 'up', redis: 'up', postgres: 'up', nats: 'up' },
    });
    await redis.stop();
    await eventually(async () =>
      expect(await service.readiness()).toEqual({
        ready: false,
        checks: { budget: 'up', redis: 'down', postgres: 'up', nats: 'up' },
      }),
    );
    await redis.restart();
    await eventually(async () => expect((await service.readiness()).ready).toBe(true));
  });

  it('is not ready from the moment it closes', async () => {
    const closing = service.close();
    closed = true;
    expect((await service.readiness()).checks['budget']).toBe('draining');
    await closing;
  });
});
