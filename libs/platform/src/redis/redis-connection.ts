import Redis from 'ioredis';

export interface RedisConnectionOptions {
  /**
   * Commands issued in one tick of the event loop leave in one write
   * (ioredis' auto-pipelining): for a client that sends one small command
   * per request, whose writes then cost more than the commands.
   */
  autoPipelining?: boolean;
}

/** A Redis client that keeps retrying; callers decide what an outage means for them. */
export function connectRedis(
  url: string,
  keyPrefix: string,
  options: RedisConnectionOptions = {},
): Redis {
  return new Redis(url, {
    keyPrefix,
    lazyConnect: false,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    enableAutoPipelining: options.autoPipelining ?? false,
  });
}

export type { Redis };
