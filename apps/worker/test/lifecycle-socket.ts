import { join } from 'node:path';
import WebSocket from 'ws';
import { startNotifier, type RunningNotifier } from '@sts/app-notifier';
import { eventually } from './eventually';
import type { Trader, WorkerHarness } from './worker-harness';

/** A message the notifier pushed (decisions 5). */
export interface SocketMessage {
  type: string;
  event?: string;
  trade_id?: string;
  status?: string;
  exchange?: string;
  enabled?: boolean;
  data?: Record<string, unknown>;
  [field: string]: unknown;
}

/** One trader's WebSocket, subscribed to all of the trader's trades. */
export class TraderSocket {
  readonly received: SocketMessage[] = [];

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.received.push(JSON.parse(String(data)) as SocketMessage));
  }

  static async open(url: string, trader: Trader): Promise<TraderSocket> {
    const socket = new WebSocket(url, { headers: { 'x-api-key': trader.headers['x-api-key'] } });
    const opened = new TraderSocket(socket);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ op: 'subscribe', subscription: 'trades', params: {} }));
    await eventually(
      () => opened.received.some((message) => message.type === 'subscribed'),
      'the trades subscription',
    );
    return opened;
  }

  /** The trade's lifecycle events, in the order the socket received them. */
  eventsOf(tradeId: string): SocketMessage[] {
    return this.received.filter(
      (message) => message.type === 'event' && message.trade_id === tradeId,
    );
  }

  namesOf(tradeId: string): string[] {
    return this.eventsOf(tradeId).map((message) => message.event ?? '');
  }

  /** Waits for the `count`-th `event` of the trade and returns it. */
  async waitFor(tradeId: string, event: string, count = 1): Promise<SocketMessage> {
    const seen = await eventually(
      () => {
        const matching = this.eventsOf(tradeId).filter((message) => message.event === event);
        return matching.length >= count ? matching : undefined;
      },
      `${count} ${event} of ${tradeId} on the socket`,
      { timeoutMs: 15_000, last: () => this.namesOf(tradeId) },
    );
    return seen[count - 1];
  }

  /** The `maintenance` events pushed to every connection, as [exchange, enabled]. */
  maintenance(): Array<[string | undefined, boolean | undefined]> {
    return this.received
      .filter((message) => message.type === 'event' && message.event === 'maintenance')
      .map((message) => [message.exchange, message.enabled]);
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * The notifier beside a WorkerHarness (same database and NATS prefix), so a
 * spec sees lifecycle events as a client does: over the public WebSocket.
 */
export class LifecycleSockets {
  private notifier?: RunningNotifier;
  private readonly sockets: TraderSocket[] = [];

  constructor(private readonly harness: WorkerHarness) {}

  async start(): Promise<void> {
    this.notifier = await startNotifier({
      ...this.harness.gateway.env,
      NOTIFIER_PORT: '0',
      NOTIFIER_HOST: '127.0.0.1',
      LOG_FILE: join(this.harness.logDir, 'notifier.log'),
    });
  }

  async connect(trader: Trader): Promise<TraderSocket> {
    if (!this.notifier) {
      throw new Error('the notifier was not started');
    }
    const socket = await TraderSocket.open(this.notifier.url, trader);
    this.sockets.push(socket);
    return socket;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets.splice(0)) {
      socket.close();
    }
    await this.notifier?.close();
  }
}
