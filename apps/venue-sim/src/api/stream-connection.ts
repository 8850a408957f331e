import type WebSocket from 'ws';

/** A slow reader past this much unsent data is cut off, as venues do. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * One client socket on one venue: what it subscribed to, and an outbox that
 * adds the venue's injected latency without ever reordering messages.
 */
export class StreamConnection {
  readonly books = new Set<string>();
  account = false;
  alive = true;
  /** Set just before an injected fault cuts the socket: it must not see what the request caused. */
  private muted = false;
  private readonly outbox: Array<{ dueMs: number; text: string }> = [];
  private lastDueMs = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly socket: WebSocket,
    readonly venue: string,
    readonly accountId: string | undefined,
    private readonly latencyMs: () => number,
  ) {}

  send(text: string): void {
    if (this.muted) {
      return;
    }
    const latency = this.latencyMs();
    if (latency === 0 && this.outbox.length === 0 && this.lastDueMs <= Date.now()) {
      this.write(text);
      return;
    }
    const dueMs = Math.max(Date.now() + latency, this.lastDueMs);
    this.lastDueMs = dueMs;
    this.outbox.push({ dueMs, text });
    if (!this.timer) {
      this.schedule();
    }
  }

  /**
   * What is sent next goes out no sooner than `ms` from now (still in order):
   * a venue whose next update of an order comes a moment after the one just sent.
   */
  pauseFor(ms: number): void {
    this.lastDueMs = Math.max(this.lastDueMs, Date.now() + ms);
  }

  mute(): void {
    this.muted = true;
  }

  /** Cuts the connection without a close frame, like a network failure. */
  drop(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.outbox.length = 0;
    this.socket.terminate();
  }

  private schedule(): void {
    const head = this.outbox[0];
    if (!head) {
      this.timer = undefined;
      return;
    }
    this.timer = setTimeout(
      () => {
        const now = Date.now();
        while (this.outbox.length > 0 && this.outbox[0].dueMs <= now) {
          this.write(this.outbox.shift()!.text);
        }
        this.schedule();
      },
      Math.max(0, head.dueMs - Date.now()),
    );
  }

  private write(text: string): void {
    if (this.socket.readyState !== this.socket.OPEN) {
      return;
    }
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.drop();
      return;
    }
    this.socket.send(text);
  }
}
