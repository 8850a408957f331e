import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Principal } from '@sts/auth';
import type { Logger } from '@sts/platform';
import { CloseCode, CloseReason } from '../protocol/close-codes';
import type { ServerReply } from '../protocol/server-messages';
import type { FillStream, SequencedFrame } from './fill-stream';

export type ConnectionState = 'authenticating' | 'open' | 'closing';

/** Requests a socket may have waiting; past this a client is flooding and its extra requests are refused. */
export const MAX_QUEUED_REQUESTS = 64;

/** Frames written and refused, and slow consumers closed, on every socket of a replica (metrics). */
export interface DeliveryCounts {
  framesSent: number;
  framesDropped: number;
  slowConsumerCloses: number;
}

export const newDeliveryCounts = (): DeliveryCounts => ({
  framesSent: 0,
  framesDropped: 0,
  slowConsumerCloses: 0,
});

/** Events held for a subscription whose ownership check is in flight; more than this is a slow consumer. */
const MAX_HELD_EVENTS = 256;

/**
 * One client socket: who it is, what it listens to, and the only place that
 * writes to it. Every write goes through the slow-consumer check, so one
 * client that stops reading costs a bounded amount of memory and never
 * delays the others.
 */
export class ClientConnection {
  readonly id = randomUUID();
  state: ConnectionState = 'authenticating';
  principal?: Principal;
  /** Subscribed to every trade of its user. */
  allTrades = false;
  /** Single-trade subscriptions whose ownership has been checked. */
  readonly trades = new Set<string>();
  /** A single-trade subscription being checked: its events wait here until the answer is sent. */
  pending?: { tradeId: string; held: Buffer[] };
  /** Subscribed to the fills of every trade of its user (live only). */
  allFills = false;
  /** Fills subscriptions to one trade each, by trade id. */
  readonly fillStreams = new Map<string, FillStream>();
  /** Stamp of the last event delivered, so a socket found through two indexes gets it once. */
  lastStamp = 0;
  /** Set by every pong and client frame, cleared by every server ping. */
  alive = true;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private inbox: Promise<void> = Promise.resolve();
  private queuedRequests = 0;

  constructor(
    readonly socket: WebSocket,
    readonly clientIp: string,
    private readonly maxBufferedBytes: number,
    readonly log: Logger,
    private readonly counts: DeliveryCounts = newDeliveryCounts(),
  ) {}

  get userId(): string | undefined {
    return this.principal?.userId;
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Sends a pre-serialized event frame; a client too far behind is closed instead (4008). */
  deliver(frame: Buffer): void {
    if (this.state === 'open') {
      this.write(frame);
    }
  }

  /** Sends an answer to a request (also before authentication, for errors). */
  reply(message: ServerReply): void {
    if (this.state !== 'closing') {
      this.write(Buffer.from(JSON.stringify(message)));
    }
  }

  /** Holds or delivers an event for `tradeId` depending on whether its subscription is still being checked. */
  deliverForTrade(tradeId: string, frame: Buffer): void {
    if (this.pending?.tradeId === tradeId && !this.allTrades && !this.trades.has(tradeId)) {
      if (this.pending.held.length >= MAX_HELD_EVENTS) {
        this.counts.framesDropped += 1;
        this.closeSlowConsumer();
        return;
      }
      this.pending.held.push(frame);
      return;
    }
    this.deliver(frame);
  }

  /** A fill of `tradeId`: through the trade's fills subscription when there is one (held, deduplicated). */
  deliverFill(tradeId: string, fill: SequencedFrame): void {
    const stream = this.fillStreams.get(tradeId);
    if (!stream) {
      this.deliver(fill.frame);
      return;
    }
    const frame = stream.offer(fill);
    if (frame === 'overflow') {
      this.counts.framesDropped += 1;
      this.closeSlowConsumer();
    } else if (frame !== null) {
      this.deliver(frame);
    }
  }

  /**
   * Resolves once the socket's unsent bytes are below half its bound (or it
   * closes), so a long replay is written as fast as the client reads, not
   * all at once into its buffer.
   */
  async drained(): Promise<void> {
    while (this.state === 'open' && this.socket.bufferedAmount > this.maxBufferedBytes / 2) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Runs the socket's requests one at a time in arrival order, so a subscribe
   * sent right behind an auth message waits for the auth to finish.
   */
  enqueue(work: () => Promise<void>): boolean {
    if (this.queuedRequests >= MAX_QUEUED_REQUESTS) {
      return false;
    }
    this.queuedRequests += 1;
    this.inbox = this.inbox
      .then(() => (this.state === 'closing' ? undefined : work()))
      .catch((error: unknown) => {
        this.log.error({ err: error, connection_id: this.id }, 'request handler failed');
      })
      .finally(() => {
        this.queuedRequests -= 1;
      });
    return true;
  }

  /** One named timer per purpose (auth deadline, credential expiry); replacing one cancels the old. */
  setTimer(name: string, delayMs: number, action: () => void): void {
    this.clearTimer(name);
    // setTimeout overflows past ~24.8 days; longer deadlines are left to the periodic re-check.
    if (delayMs > 2_000_000_000) {
      return;
    }
    const timer = setTimeout(action, Math.max(0, delayMs));
    timer.unref();
    this.timers.set(name, timer);
  }

  clearTimer(name: string): void {
    const timer = this.timers.get(name);
    if (timer) {
      clearTimeout(timer);
    }
    this.timers.delete(name);
  }

  /** Starts the closing handshake; the socket receives nothing more. */
  close(code: CloseCode, reason: string): void {
    if (this.state === 'closing') {
      return;
    }
    this.state = 'closing';
    this.releaseTimers();
    this.pending = undefined;
    this.socket.close(code, reason);
  }

  /** Drops a socket that cannot take a close frame (dead peer). */
  terminate(): void {
    this.state = 'closing';
    this.releaseTimers();
    this.socket.terminate();
  }

  releaseTimers(): void {
    for (const timer of this.timers.values()) {
      clearTimeout(timer);
    }
    this.timers.clear();
  }

  private write(frame: Buffer): void {
    if (this.socket.bufferedAmount + frame.length > this.maxBufferedBytes) {
      this.counts.framesDropped += 1;
      this.closeSlowConsumer();
      return;
    }
    this.counts.framesSent += 1;
    this.socket.send(frame, { binary: false });
  }

  private closeSlowConsumer(): void {
    if (this.state !== 'closing') {
      this.counts.slowConsumerCloses += 1;
    }
    this.log.warn(
      {
        connection_id: this.id,
        user_id: this.userId,
        buffered_bytes: this.socket.bufferedAmount,
        limit_bytes: this.maxBufferedBytes,
      },
      'slow consumer disconnected',
    );
    // The close frame queues behind the unsent bytes; the server's closeTimeout
    // destroys the socket if the client never reads that far.
    this.close(CloseCode.SlowConsumer, CloseReason.SlowConsumer);
  }
}
