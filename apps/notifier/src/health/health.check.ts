import type { DataSource } from 'typeorm';
import { checkEdgeDependencies, type NatsLink } from '@sts/platform';
import type { ConnectionRegistry } from '../connections/connection-registry';

export interface HealthReport {
  healthy: boolean;
  body: {
    status: 'ok' | 'degraded';
    checks: { postgres: 'up' | 'down'; nats: 'up' | 'down' };
    connections: number;
    error?: string;
    code?: 'service_unavailable';
    reason?: string;
  };
}

/**
 * Readiness (GET /readyz, also /healthz): 200 when Postgres and NATS answer,
 * else 503 service_unavailable whose `reason` names what is down; plus the
 * sockets held. NATS is read from the connection's status (no round trip that
 * would wait behind a dead link).
 */
export class HealthCheck {
  constructor(
    private readonly dataSource: DataSource,
    private readonly nats: NatsLink,
    private readonly registry: ConnectionRegistry,
  ) {}

  async report(): Promise<HealthReport> {
    const { checks, down } = await checkEdgeDependencies(this.dataSource, this.nats);
    const connections = this.registry.size;
    if (down.length === 0) {
      return { healthy: true, body: { status: 'ok', checks, connections } };
    }
    return {
      healthy: false,
      body: {
        status: 'degraded',
        checks,
        connections,
        error: `not ready: ${down.join(', ')} cannot be reached`,
        code: 'service_unavailable',
        reason: down.join(','),
      },
    };
  }
}
