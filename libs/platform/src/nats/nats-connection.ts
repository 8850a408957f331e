import { connect, type NatsConnection } from '@nats-io/transport-node';

export interface NatsConnectOptions {
  url: string;
  /** Shows in `nats server report connections`; use the service and instance id. */
  name: string;
}

/** Connects with endless reconnects: a NATS blip must not kill a service holding trades. */
export function connectNats(options: NatsConnectOptions): Promise<NatsConnection> {
  return connect({
    servers: options.url.split(','),
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 10_000,
    // Else every request captures a stack trace (two Error objects) in case it
    // times out: workers make dozens a second (budget reads), and a timeout is
    // reported with what was asked (BudgetUnavailableError names it) anyway.
    noAsyncTraces: true,
  });
}

export type { NatsConnection };
