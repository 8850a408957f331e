import { type Logger, PeriodicTask } from '@sts/platform';
import type { ClientConnection } from '../connections/client-connection';
import type { ConnectionRegistry } from '../connections/connection-registry';

/**
 * Sockets pinged per slice before the loop yields: a ping is a socket write,
 * and 5,000 of them in one go would hold back an event arriving meanwhile for
 * hundreds of milliseconds (measured with bench/notifier.bench.ts).
 */
const PINGS_PER_SLICE = 200;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Server heartbeats: a protocol ping to every socket each interval; a socket
 * that has not answered (pong or any frame) since the previous ping is dead
 * (a peer gone without a FIN, a NAT that dropped the flow) and is dropped,
 * so it stops holding memory and subscriptions. Browsers answer protocol
 * pings on their own; `{"op":"ping"}` is for clients that want an app-level check.
 */
export class Heartbeat {
  private readonly task: PeriodicTask;
  private beating = false;

  constructor(
    private readonly registry: ConnectionRegistry,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {
    this.task = new PeriodicTask(() => this.beat(), {
      intervalMs,
      onError: (error) => log.warn({ err: error }, 'heartbeat failed'),
    });
  }

  start(): void {
    this.task.start();
  }

  /** Resolves once a heartbeat in flight has ended. */
  stop(): Promise<void> {
    return this.task.stop();
  }

  async beat(): Promise<void> {
    if (this.beating) {
      return;
    }
    this.beating = true;
    try {
      const sockets = [...this.registry.all()];
      for (let index = 0; index < sockets.length; index += 1) {
        if (index > 0 && index % PINGS_PER_SLICE === 0) {
          await nextTurn();
        }
        this.check(sockets[index]!);
      }
    } finally {
      this.beating = false;
    }
  }

  private check(connection: ClientConnection): void {
    if (connection.state === 'closing') {
      return;
    }
    if (!connection.alive) {
      this.log.info(
        { connection_id: connection.id, user_id: connection.userId },
        'socket missed its heartbeat; dropped',
      );
      connection.terminate();
      return;
    }
    connection.alive = false;
    connection.socket.ping();
  }
}
