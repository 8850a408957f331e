export interface PeriodicTaskOptions {
  /** The pause between the end of one run and the start of the next. */
  intervalMs: number;
  /** Run once at start() instead of after the first interval (default false). */
  runAtStart?: boolean;
  /** Whether the timer keeps the process alive (default false). */
  ref?: boolean;
  /** A run that throws is reported here and the task goes on (default: ignored). */
  onError?: (error: unknown) => void;
}

/**
 * Runs `run` every `intervalMs`, never two at once: the next run is armed
 * when the previous one has ended. `stop()` disarms it and resolves once the
 * run in flight, if any, has ended.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private current?: Promise<void>;
  private running = false;

  constructor(
    private readonly run: () => Promise<unknown> | unknown,
    private readonly options: PeriodicTaskOptions,
  ) {}

  /** Whether the task is started (and not stopped). */
  get started(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) {
      return;
    }
    this.running = true;
    if (this.current) {
      // Restarted while a run is still in flight: its end arms the next one.
      return;
    }
    if (this.options.runAtStart) {
      this.tick();
    } else {
      this.arm();
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.current;
  }

  private arm(): void {
    this.timer = setTimeout(() => this.tick(), this.options.intervalMs);
    if (!this.options.ref) {
      this.timer.unref();
    }
  }

  private tick(): void {
    this.timer = undefined;
    this.current = (async () => {
      try {
        await this.run();
      } catch (error) {
        this.options.onError?.(error);
      }
    })().finally(() => {
      this.current = undefined;
      if (this.running && !this.timer) {
        this.arm();
      }
    });
  }
}
