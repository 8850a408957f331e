import WebSocket from 'ws';
import type { TradeUnderTest, Violation } from './checks';
import { TERMINAL } from './checks';
import { delay } from './processes';

interface SocketMessage {
  type: string;
  event?: string;
  trade_id?: string;
}

/**
 * How long a terminal status may take to reach a socket after the wind-down:
 * a healed partition may cost the NATS cluster its leaders for a while (a
 * rejoining node forces elections), and the outbox publishes once they are back.
 */
const DELIVERY_GRACE_MS = 30_000;

/**
 * One WebSocket per trader on each notifier, subscribed to its trades from
 * before the fault: at the end, every trade's terminal status must have
 * come as its lifecycle event (`trade.completed`, `trade.canceled`,
 * `trade.failed`) on one of them. A trader whose every socket the notifiers
 * closed is noted, not judged.
 */
export class LifecycleWatch {
  private readonly sockets: WebSocket[] = [];
  private readonly events = new Map<string, string[]>();
  /** Sockets closed, per trade. */
  private readonly closed = new Map<string, number>();

  constructor(
    private readonly notifierUrls: string[],
    private readonly trades: TradeUnderTest[],
  ) {}

  async start(): Promise<void> {
    for (const notifierUrl of this.notifierUrls) {
      for (const trade of this.trades) {
        await this.open(`${notifierUrl.replace(/^http/, 'ws')}/api/v1/ws`, trade);
      }
    }
  }

  private allClosed(tradeId: string): boolean {
    return (this.closed.get(tradeId) ?? 0) >= this.notifierUrls.length;
  }

  private async open(url: string, trade: TradeUnderTest): Promise<void> {
    const socket = new WebSocket(url, {
      headers: { 'x-api-key': trade.trader.headers['x-api-key'] },
    });
    this.sockets.push(socket);
    socket.on('message', (data) => this.take(JSON.parse(String(data)) as SocketMessage));
    socket.on('close', () =>
      this.closed.set(trade.tradeId, (this.closed.get(trade.tradeId) ?? 0) + 1),
    );
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const subscribed = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        if ((JSON.parse(String(data)) as SocketMessage).type === 'subscribed') {
          resolve();
        }
      }),
    );
    socket.send(JSON.stringify({ op: 'subscribe', subscription: 'trades', params: {} }));
    await subscribed;
  }

  private take(message: SocketMessage): void {
    if (message.type !== 'event' || !message.trade_id || !message.event) {
      return;
    }
    const seen = this.events.get(message.trade_id) ?? [];
    if (!seen.includes(message.event)) {
      seen.push(message.event);
    }
    this.events.set(message.trade_id, seen);
  }

  /**
   * Judges delivery against each trade's final status, read through the API.
   * When an event is lost, the first violation also carries `diagnose()`'s
   * account of the delivery path (a CI log shows the first and the last).
   */
  async stop(
    finalStatus: (trade: TradeUnderTest) => Promise<string>,
    diagnose: () => Promise<string>,
  ): Promise<Violation[]> {
    const violations: Violation[] = [];
    const deadline = Date.now() + DELIVERY_GRACE_MS;
    const missing = async () => {
      const lost: Array<{ trade: TradeUnderTest; status: string }> = [];
      for (const trade of this.trades) {
        const status = await finalStatus(trade);
        const seen = this.events.get(trade.tradeId) ?? [];
        if (
          TERMINAL.has(status) &&
          !this.allClosed(trade.tradeId) &&
          !seen.includes(`trade.${status}`)
        ) {
          lost.push({ trade, status });
        }
      }
      return lost;
    };
    let lost = await missing();
    while (lost.length > 0 && Date.now() < deadline) {
      await delay(250);
      lost = await missing();
    }
    for (const { trade, status } of lost) {
      violations.push({
        invariant: 'lifecycle_event_lost',
        tradeId: trade.tradeId,
        detail: `the trade ended ${status}; its socket received ${JSON.stringify(this.events.get(trade.tradeId) ?? [])}`,
      });
    }
    if (violations.length > 0) {
      violations[0].detail += `; delivery: ${await diagnose().catch((error) => `not read: ${String(error)}`)}`;
    }
    for (const socket of this.sockets) {
      socket.close();
    }
    return violations;
  }

  /** For the report: what the sockets received, and how many the notifier closed (not judged). */
  summary(): string {
    const received = [...this.events.values()].reduce((n, seen) => n + seen.length, 0);
    return `lifecycle: ${received} events on ${this.sockets.length} sockets, ${[...this.closed.values()].reduce((n, c) => n + c, 0)} closed by the notifiers`;
  }
}
