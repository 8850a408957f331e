import type { DataSource } from 'typeorm';
import type { NatsConnection } from '@sts/platform';
import type { ConnectionRegistry } from '../connections/connection-registry';

const CHECK_TIMEOUT_MS = 2000;

const within = <T>(work: Promise<T>): Promise<T> =>
  Promise.race([
    work,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);

const upOrDown = (work: Promise<unknown>): Promise<'up' | 'down'> =>
  within(work).then(
    () => 'up' as const,
    () => 'down' as const,
  );

export interface HealthReport {
  healthy: boolean;
  body: {
    status: 'ok' | 'degraded';
    checks: { postgres: string; nats: string };
    connections: number;
  };
}

/** GET /healthz: 200 when Postgres and NATS answer, else 503 naming the failure; plus sockets held. */
export class HealthCheck {
  constructor(
    private readonly dataSource: DataSource,
    private readonly nats: NatsConnection,
    private readonly registry: ConnectionRegistry,
  ) {}

  async report(): Promise<HealthReport> {
    const [postgres, nats] = await Promise.all([
      upOrDown(this.dataSource.query('SELECT 1')),
      this.nats.isClosed() ? Promise.resolve('down' as const) : upOrDown(this.nats.flush()),
    ]);
    const healthy = postgres === 'up' && nats === 'up';
    return {
      healthy,
      body: {
        status: healthy ? 'ok' : 'degraded',
        checks: { postgres, nats },
        connections: this.registry.size,
      },
    };
  }
}
