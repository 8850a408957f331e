import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '@sts/auth';
import type { NatsConnection } from '@sts/platform';
import { NATS_CONNECTION } from '../infrastructure/tokens';

const CHECK_TIMEOUT_MS = 2000;

const withTimeout = <T>(work: Promise<T>): Promise<T> =>
  Promise.race([
    work,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);

/** Liveness and readiness in one: 200 when Postgres and NATS answer, else 503 naming the failure. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
  ) {}

  @Public()
  @Get('healthz')
  @HttpCode(200)
  async health(@Res() reply: FastifyReply): Promise<void> {
    const [postgres, nats] = await Promise.all([
      withTimeout(this.dataSource.query('SELECT 1')).then(
        () => 'up',
        () => 'down',
      ),
      this.nats.isClosed()
        ? Promise.resolve('down')
        : withTimeout(this.nats.flush()).then(
            () => 'up',
            () => 'down',
          ),
    ]);
    const healthy = postgres === 'up' && nats === 'up';
    await reply.status(healthy ? 200 : 503).send({
      status: healthy ? 'ok' : 'degraded',
      checks: { postgres, nats },
    });
  }
}
