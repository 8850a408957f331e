import WebSocket from 'ws';
import type { TradeUnderTest, Violation } from './checks';
import { TERMINAL } from './checks';
import { delay } from './processes';

interface SocketMessage {
  type: string;
  event?: string;
  trade_id?: string;
}

/** How long a terminal status may take to reach the socket after the trade ended. */
const DELIVERY_GRACE_MS = 5_000;

/**
 * One WebSocket per trader on the notifier, subscribed to its trades from
 * before the fault: at the end, every trade's terminal status must have
 * come as its lifecycle event (`trade.completed`, `trade.canceled`,
 * `trade.failed`). A socket the notifier closed is noted, not judged.
 */
export class LifecycleWatch {
  private readonly sockets: WebSocket[] = [];
  private readonly events = new Map<string, string[]>();
  private readonly closed = new Set<string>();

  constructor(
    private readonly notifierUrl: string,
    private readonly trades: TradeUnderTest[],
  ) {}

  async start(): Promise<void> {
    const url = `${this.notifierUrl.replace(/^http/, 'ws')}/api/v1/ws`;
    for (const trade of this.trades) {
      const socket = new WebSocket(url, {
        headers: { 'x-api-key': trade.trader.headers['x-api-key'] },
      });
      this.sockets.push(socket);
      socket.on('message', (data) => this.take(JSON.parse(String(data)) as SocketMessage));
      socket.on('close', () => this.closed.add(trade.tradeId));
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
  }

  private take(message: SocketMessage): void {
    if (message.type !== 'event' || !message.trade_id || !message.event) {
      return;
    }
    const seen = this.events.get(message.trade_id) ?? [];
    seen.push(message.event);
    this.events.set(message.trade_id, seen);
  }

  /** Judges delivery against each trade's final status, read through the API. */
  async stop(finalStatus: (trade: TradeUnderTest) => Promise<string>): Promise<Violation[]> {
    const violations: Violation[] = [];
    const deadline = Date.now() + DELIVERY_GRACE_MS;
    const missing = async () => {
      const lost: Array<{ trade: TradeUnderTest; status: string }> = [];
      for (const trade of this.trades) {
        const status = await finalStatus(trade);
        const seen = this.events.get(trade.tradeId) ?? [];
        if (
          TERMINAL.has(status) &&
          !this.closed.has(trade.tradeId) &&
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
    for (const socket of this.sockets) {
      socket.close();
    }
    return violations;
  }

  /** For the report: what the sockets received, and how many the notifier closed (not judged). */
  summary(): string {
    const received = [...this.events.values()].reduce((n, seen) => n + seen.length, 0);
    return `lifecycle: ${received} events on ${this.sockets.length} sockets, ${this.closed.size} closed by the notifier`;
  }
}
