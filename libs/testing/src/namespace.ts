import { randomBytes } from 'node:crypto';

/**
 * A private NATS subject/stream prefix and Redis key prefix for one spec, so
 * specs share the machine's real NATS and Redis without seeing each other.
 */
export interface TestNamespace {
  natsPrefix: string;
  redisPrefix: string;
}

export function testNamespace(): TestNamespace {
  const id = randomBytes(5).toString('hex');
  return { natsPrefix: `t${id}`, redisPrefix: `t:${id}:` };
}
