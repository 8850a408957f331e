import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '@sts/auth';
import { checkEdgeDependencies, NatsLink } from '@sts/platform';
import { DEPENDENCY_RETRY_AFTER_S } from '../errors/app-error.filter';

type EdgeChecks = Awaited<ReturnType<typeof checkEdgeDependencies>>['checks'];

type ReadinessBody =
  | { status: 'ok'; checks: EdgeChecks }
  | {
      status: 'degraded';
      checks: EdgeChecks;
      error: string;
      code: 'service_unavailable';
      reason: string;
    };

/** Probes: never rate limited, never logged per request. */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/livez', '/readyz', '/healthz']);

/**
 * Liveness (`/livez`: the process answers; never restarts a gateway because
 * Postgres blinked) and readiness (`/readyz`, also `/healthz`: 200 when
 * Postgres and NATS answer, else 503 service_unavailable whose `reason` names
 * what is down). Readiness recovers by itself when the dependency does.
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly nats: NatsLink,
  ) {}

  @Public()
  @Get('livez')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Public()
  @Get(['readyz', 'healthz'])
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessBody> {
    const { checks, down } = await checkEdgeDependencies(this.dataSource, this.nats);
    if (down.length === 0) {
      return { status: 'ok', checks };
    }
    reply.code(503).header('retry-after', String(DEPENDENCY_RETRY_AFTER_S));
    return {
      status: 'degraded',
      checks,
      error: `not ready: ${down.join(', ')} cannot be reached`,
      code: 'service_unavailable',
      reason: down.join(','),
    };
  }
}
