import { connect, type NatsConnection } from '@nats-io/transport-node';

export interface NatsConnectOptions {
  url: string;
  /** Shows in `nats server report connections`; use the service and instance id. */
  name: string;
}

/**
 * Connects with endless reconnects: a NATS blip must not kill a service
 * holding trades. The servers of NATS_URL are tried in the order given (a
 * host's own node first, where one runs beside the service). A connection
 * that stops answering (a partition drops packets, it does not close
 * sockets) is given up after three unanswered pings two seconds apart, and
 * another server is dialled, rather than after half a minute.
 */
export function connectNats(options: NatsConnectOptions): Promise<NatsConnection> {
  return connect({
    servers: options.url.split(','),
    noRandomize: true,
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 2_000,
    maxPingOut: 3,
    // Else every request captures a stack trace (two Error objects) in case it
    // times out: workers make dozens a second (budget reads), and a timeout is
    // reported with what was asked (BudgetUnavailableError names it) anyway.
    noAsyncTraces: true,
  });
}

export type { NatsConnection };
