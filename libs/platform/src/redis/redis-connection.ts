import Redis from 'ioredis';

/** A Redis client that keeps retrying; callers decide what an outage means for them. */
export function connectRedis(url: string, keyPrefix: string): Redis {
  return new Redis(url, {
    keyPrefix,
    lazyConnect: false,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
}

export type { Redis };
