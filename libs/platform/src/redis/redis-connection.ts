import Redis from 'ioredis';

export interface RedisConnectionOptions {
  /**
   * Commands issued in one turn of the event loop leave in one write
   * (ioredis' auto-pipelining): for a client many requests share, each
   * sending one command, a system call per turn instead of per command.
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
    enableAutoPipelining: options.autoPipelining ?? false,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
}

export type { Redis };
