/**
 * Drives the simulation clock: one step every `tickMs`, or none at all
 * (`tickMs` 0, manual mode) when tests step the world themselves.
 */
export class Ticker {
  private timer?: NodeJS.Timeout;
  private interval = 0;

  constructor(private readonly step: () => void) {}

  get tickMs(): number {
    return this.interval;
  }

  set(tickMs: number): void {
    this.stop();
    this.interval = tickMs;
    if (tickMs > 0) {
      this.timer = setInterval(this.step, tickMs);
    }
  }

  stop(): void {
    if (this.timer) {
      clearInterval(this.timer);
    }
    this.timer = undefined;
  }
}
