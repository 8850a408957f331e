import { connect, type NatsConnection } from 'nats';

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
  });
}

export type { NatsConnection };
