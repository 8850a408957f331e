import type { NatsConnection } from './nats-connection';

/**
 * Whether a NATS connection is up right now, from its status stream: false
 * from a `disconnect` until the client's own (endless) reconnect succeeds. The
 * edge reads it to answer 503 at once instead of letting a request wait out
 * its timeout behind a dead link, and readiness reads it without a round trip.
 */
export class NatsLink {
  private up = true;

  constructor(private readonly connection: NatsConnection) {
    void this.watch();
  }

  get connected(): boolean {
    return this.up && !this.connection.isClosed();
  }

  private async watch(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === 'disconnect') {
        this.up = false;
      } else if (status.type === 'reconnect') {
        this.up = true;
      }
    }
    this.up = false;
  }
}
