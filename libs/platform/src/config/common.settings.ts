// First: the settings' number types are read from decorator metadata (implicit conversion).
import 'reflect-metadata';
import { Expose } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Settings every service reads. Each field is documented in README.md (Settings). */
export class CommonSettings {
  @Expose({ name: 'LOG_LEVEL' })
  @IsIn(LOG_LEVELS)
  logLevel: LogLevel = 'info';

  /** Write logs to this file instead of stdout (tests read it back to prove no secret is logged). */
  @Expose({ name: 'LOG_FILE' })
  @IsOptional()
  @IsString()
  logFile?: string;

  @Expose({ name: 'DATABASE_URL' })
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  databaseUrl: string = 'postgres://postgres@127.0.0.1:5432/sts';

  @Expose({ name: 'NATS_URL' })
  @IsString()
  natsUrl: string = 'nats://127.0.0.1:4222';

  /** Prefix of every NATS subject and JetStream stream, so several deployments share one NATS. */
  @Expose({ name: 'NATS_PREFIX' })
  @Matches(/^[a-z][a-z0-9_]{0,31}$/, { message: 'NATS_PREFIX must be lowercase [a-z0-9_]' })
  natsPrefix: string = 'sts';

  /**
   * Replicas of every JetStream stream and KV bucket: 1 on a single NATS
   * server, 3 on a cluster of three or more. Checked at boot: a count the
   * cluster cannot hold is refused, naming this setting.
   */
  @Expose({ name: 'NATS_REPLICAS' })
  @IsInt()
  @Min(1)
  @Max(5)
  natsReplicas: number = 1;

  @Expose({ name: 'REDIS_URL' })
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  redisUrl: string = 'redis://127.0.0.1:6379';

  @Expose({ name: 'REDIS_PREFIX' })
  @IsString()
  redisPrefix: string = 'sts:';

  /** Address of the service's metrics and health listener (its port is a per-service setting). */
  @Expose({ name: 'METRICS_HOST' })
  @IsString()
  metricsHost: string = '0.0.0.0';

  /** Path to a JSON file that overrides the checked-in venue registry (config/venues.json). */
  @Expose({ name: 'VENUE_REGISTRY_FILE' })
  @IsOptional()
  @IsString()
  venueRegistryFile?: string;
}
