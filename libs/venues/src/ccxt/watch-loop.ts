import type { VenueEvents } from '../venue-events';
import { backoffDelay, sleep } from '@sts/platform';

/** Slack before the last event seen, for events in flight when a stream died and clock skew. */
const RECOVERY_MARGIN_MS = 5_000;

/**
 * Whether a live client's streams are up, as one signal. ccxt re-opens a
 * socket by itself on the next watch call; a stream counts as back when that
 * call delivers data or has stayed pending for `graceMs` without failing
 * (ccxt has subscribed by then).
 */
export class ConnectionSignal {
  private down?: { atMs: number };
  /** The streams that failed and have not come back yet. */
  private readonly failing = new Set<string>();
  private lastAccountEventMs?: number;

  constructor(private readonly events: VenueEvents) {}

  noteAccountEvent(venueTimeMs: number): void {
    this.lastAccountEventMs = venueTimeMs;
  }

  /** Whether every stream is up (none failed and not back yet). */
  get up(): boolean {
    return this.down === undefined;
  }

  failed(stream: string, reason: string): void {
    this.failing.add(stream);
    if (this.down) {
      return;
    }
    this.down = { atMs: Date.now() };
    this.events.emit('connection', { state: 'disconnected', atMs: this.down.atMs, reason });
  }

  /**
   * A stream is back. The client is back only when every stream that failed
   * is: a fill read-back after `reconnected` while the fill stream is still
   * down would miss what fills between the read and its resubscription.
   */
  healthy(stream: string): void {
    this.failing.delete(stream);
    if (!this.down || this.failing.size > 0) {
      return;
    }
    const disconnectedAtMs = this.down.atMs;
    this.down = undefined;
    const lastSeen = Math.min(disconnectedAtMs, this.lastAccountEventMs ?? disconnectedAtMs);
    this.events.emit('connection', {
      state: 'reconnected',
      atMs: Date.now(),
      disconnectedAtMs,
      recoverFromMs: lastSeen - RECOVERY_MARGIN_MS,
    });
  }

  /** A stream that stopped (unsubscribed) no longer holds the client down. */
  forget(stream: string): void {
    this.healthy(stream);
  }
}

export interface WatchLoopOptions<T> {
  name: string;
  watch: () => Promise<T>;
  onData: (data: T) => void;
  signal: ConnectionSignal;
  initialBackoffMs: number;
  maxBackoffMs: number;
  graceMs: number;
  onError?: (error: unknown) => void;
}

/** Calls a ccxt watch method in a loop until stopped, backing off after failures. */
export class WatchLoop<T> {
  private stopped = false;

  constructor(private readonly options: WatchLoopOptions<T>) {}

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.options.signal.forget(this.options.name);
  }

  private async run(): Promise<void> {
    const { watch, onData, signal, name } = this.options;
    let failures = 0;
    while (!this.stopped) {
      const grace =
        failures > 0 ? setTimeout(() => signal.healthy(name), this.options.graceMs) : undefined;
      try {
        const data = await watch();
        if (grace) {
          clearTimeout(grace);
        }
        if (this.stopped) {
          return;
        }
        failures = 0;
        signal.healthy(name);
        onData(data);
      } catch (error) {
        if (grace) {
          clearTimeout(grace);
        }
        if (this.stopped) {
          return;
        }
        failures += 1;
        this.options.onError?.(error);
        signal.failed(name, `${name}: ${error instanceof Error ? error.message : String(error)}`);
        await sleep(
          backoffDelay(failures, {
            baseDelayMs: this.options.initialBackoffMs,
            maxDelayMs: this.options.maxBackoffMs,
          }),
        );
      }
    }
  }
}
