import type { VenueEvents } from '../venue-events';

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
  private lastAccountEventMs?: number;

  constructor(private readonly events: VenueEvents) {}

  noteAccountEvent(venueTimeMs: number): void {
    this.lastAccountEventMs = venueTimeMs;
  }

  failed(reason: string): void {
    if (this.down) return;
    this.down = { atMs: Date.now() };
    this.events.emit('connection', { state: 'disconnected', atMs: this.down.atMs, reason });
  }

  healthy(): void {
    if (!this.down) return;
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
  }

  private async run(): Promise<void> {
    const { watch, onData, signal } = this.options;
    let failures = 0;
    while (!this.stopped) {
      const grace =
        failures > 0 ? setTimeout(() => signal.healthy(), this.options.graceMs) : undefined;
      try {
        const data = await watch();
        if (grace) clearTimeout(grace);
        if (this.stopped) return;
        failures = 0;
        signal.healthy();
        onData(data);
      } catch (error) {
        if (grace) clearTimeout(grace);
        if (this.stopped) return;
        failures += 1;
        this.options.onError?.(error);
        signal.failed(
          `${this.options.name}: ${error instanceof Error ? error.message : String(error)}`,
        );
        const delay = Math.min(
          this.options.maxBackoffMs,
          this.options.initialBackoffMs * 2 ** (failures - 1),
        );
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
