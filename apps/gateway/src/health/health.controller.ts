import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '@sts/auth';
import { NatsLink } from '@sts/platform';
import { DEPENDENCY_RETRY_AFTER_S } from '../errors/app-error.filter';

const CHECK_TIMEOUT_MS = 1500;

/** Probes: never rate limited, never logged per request. */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/livez', '/readyz', '/healthz']);

const answersWithin = (work: Promise<unknown>): Promise<'up' | 'down'> =>
  Promise.race([
    work.then(
      () => 'up' as const,
      () => 'down' as const,
    ),
    new Promise<'down'>((resolve) => setTimeout(() => resolve('down'), CHECK_TIMEOUT_MS).unref()),
  ]);

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
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const checks = {
      postgres: await answersWithin(this.dataSource.query('SELECT 1')),
      nats: this.nats.connected ? ('up' as const) : ('down' as const),
    };
    const down = Object.entries(checks)
      .filter(([, state]) => state === 'down')
      .map(([name]) => name);
    if (down.length === 0) {
      await reply.status(200).send({ status: 'ok', checks });
      return;
    }
    await reply
      .status(503)
      .header('retry-after', String(DEPENDENCY_RETRY_AFTER_S))
      .send({
        status: 'degraded',
        checks,
        error: `not ready: ${down.join(', ')} cannot be reached`,
        code: 'service_unavailable',
        reason: down.join(','),
      });
  }
}
