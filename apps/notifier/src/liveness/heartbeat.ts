import type { Logger } from '@sts/platform';
import type { ConnectionRegistry } from '../connections/connection-registry';

/**
 * Server heartbeats: a protocol ping to every socket each interval; a socket
 * that has not answered (pong or any frame) since the previous ping is dead
 * (a peer gone without a FIN, a NAT that dropped the flow) and is dropped,
 * so it stops holding memory and subscriptions. Browsers answer protocol
 * pings on their own; `{"op":"ping"}` is for clients that want an app-level check.
 */
export class Heartbeat {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly registry: ConnectionRegistry,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.beat(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  beat(): void {
    for (const connection of this.registry.all()) {
      if (connection.state === 'closing') continue;
      if (!connection.alive) {
        this.log.info(
          { connection_id: connection.id, user_id: connection.userId },
          'socket missed its heartbeat; dropped',
        );
        connection.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }
}
