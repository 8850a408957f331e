import { parseClientOrderId, type VenueId } from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { Unsubscribe, VenueClient, VenueFill, VenueOrder } from '@sts/venues';

/** What a trade hears from one of its venue accounts. Called synchronously from the socket. */
export interface AccountListener {
  onFill(fill: VenueFill): void;
  onOrder(order: VenueOrder): void;
}

const RECOVERY_ATTEMPTS = 5;

/**
 * One venue account (venue, wallet) shared by every trade of this worker that
 * trades on it: one client, one own-order stream. Fills and order updates are
 * routed to the trade whose client order id tag they carry. After a
 * reconnect, fills missed while the stream was down are read back with
 * `fillsSince` and routed the same way (trades drop what they already saw).
 */
export class AccountSession {
  private readonly listeners = new Map<string, AccountListener>();
  private readonly unsubscribers: Unsubscribe[] = [];
  private connecting?: Promise<void>;
  private venueClient?: VenueClient;

  constructor(
    readonly venue: VenueId,
    readonly wallet: string,
    private readonly createClient: () => Promise<VenueClient>,
    private readonly logger: Logger,
  ) {}

  /** The account's client; there once `connect` resolved. */
  get client(): VenueClient {
    if (!this.venueClient)
      throw new Error(`${this.venue} session of ${this.wallet} is not connected`);
    return this.venueClient;
  }

  connect(): Promise<void> {
    this.connecting ??= this.open().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    if (!this.venueClient) {
      const client = await this.createClient();
      this.venueClient = client;
      this.unsubscribers.push(
        client.on('fill', (fill) => this.route(fill.clientOrderId)?.onFill(fill)),
        client.on('order', (order) => this.route(order.clientOrderId)?.onOrder(order)),
        client.on('connection', (event) => {
          if (event.state === 'reconnected') void this.recoverFills(event.recoverFromMs);
          if (event.state === 'disconnected') {
            this.logger.warn(
              { venue: this.venue, wallet: this.wallet, reason: event.reason },
              'account stream disconnected',
            );
          }
        }),
      );
    }
    await this.venueClient.connect();
  }

  /** Routes this trade's events (by its client order id tag) to `listener`. */
  listen(tradeTag: string, listener: AccountListener): Unsubscribe {
    this.listeners.set(tradeTag, listener);
    return () => {
      if (this.listeners.get(tradeTag) === listener) this.listeners.delete(tradeTag);
    };
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    this.listeners.clear();
    await this.venueClient?.close();
  }

  private route(clientOrderId: string): AccountListener | undefined {
    const parsed = parseClientOrderId(clientOrderId);
    return parsed ? this.listeners.get(parsed.tradeTag) : undefined;
  }

  private async recoverFills(sinceMs: number): Promise<void> {
    for (let attempt = 1; attempt <= RECOVERY_ATTEMPTS; attempt += 1) {
      try {
        const fills = await this.client.fillsSince(sinceMs);
        for (const fill of fills) this.route(fill.clientOrderId)?.onFill(fill);
        return;
      } catch (error) {
        this.logger.warn(
          { venue: this.venue, wallet: this.wallet, err: error, attempt },
          'could not read fills missed during a disconnect',
        );
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }
}
