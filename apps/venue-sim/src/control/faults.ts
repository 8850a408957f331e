import { HttpFailure } from '../api/http-kit';

export type FreezeMode = 'hang' | 'halt';

interface VenueFaults {
  latencyMs: number;
  rejectNext: { count: number; reason: string };
  delayNext: { count: number; ms: number };
  frozen?: { mode: FreezeMode; release: Promise<void>; resolve: () => void };
  wsBlockedUntilMs: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Faults injected per venue through the control endpoint: added latency on
 * every request and stream message, the next N orders rejected or delayed, a
 * frozen venue (requests hang until thawed, or fail with 503), and refused
 * WebSocket connections for a while after a drop.
 */
export class FaultInjector {
  private readonly venues = new Map<string, VenueFaults>();

  of(venue: string): VenueFaults {
    let faults = this.venues.get(venue);
    if (!faults) {
      faults = {
        latencyMs: 0,
        rejectNext: { count: 0, reason: '' },
        delayNext: { count: 0, ms: 0 },
        wsBlockedUntilMs: 0,
      };
      this.venues.set(venue, faults);
    }
    return faults;
  }

  setLatency(venue: string, ms: number): void {
    this.of(venue).latencyMs = ms;
  }

  rejectNextOrders(venue: string, count: number, reason: string): void {
    this.of(venue).rejectNext = { count, reason };
  }

  delayNextOrders(venue: string, count: number, ms: number): void {
    this.of(venue).delayNext = { count, ms };
  }

  freeze(venue: string, mode: FreezeMode): void {
    const faults = this.of(venue);
    if (faults.frozen) {
      faults.frozen.mode = mode;
      return;
    }
    let resolve!: () => void;
    const release = new Promise<void>((done) => (resolve = done));
    faults.frozen = { mode, release, resolve };
  }

  thaw(venue: string): void {
    const faults = this.of(venue);
    faults.frozen?.resolve();
    faults.frozen = undefined;
  }

  isFrozen(venue: string): boolean {
    return this.of(venue).frozen !== undefined;
  }

  blockSockets(venue: string, ms: number): void {
    this.of(venue).wsBlockedUntilMs = Date.now() + ms;
  }

  socketsBlocked(venue: string): boolean {
    return Date.now() < this.of(venue).wsBlockedUntilMs;
  }

  /** Applied to every private request before it reaches the engine. */
  async beforeRequest(venue: string): Promise<void> {
    const faults = this.of(venue);
    if (faults.frozen?.mode === 'halt')
      throw new HttpFailure(503, 'venue_halted', `${venue} is halted`);
    if (faults.frozen) await faults.frozen.release;
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  }

  /** Applied to order placements after `beforeRequest`. */
  async beforeOrder(venue: string): Promise<void> {
    const faults = this.of(venue);
    if (faults.rejectNext.count > 0) {
      faults.rejectNext.count -= 1;
      throw new HttpFailure(400, 'rejected', 'order rejected by the venue', {
        reason: faults.rejectNext.reason,
      });
    }
    if (faults.delayNext.count > 0) {
      faults.delayNext.count -= 1;
      await sleep(faults.delayNext.ms);
    }
  }

  latencyOf(venue: string): number {
    return this.of(venue).latencyMs;
  }

  state(venue: string): Record<string, unknown> {
    const faults = this.of(venue);
    return {
      latency_ms: faults.latencyMs,
      reject_next: faults.rejectNext.count,
      delay_next: faults.delayNext.count,
      frozen: faults.frozen?.mode ?? null,
    };
  }

  reset(): void {
    for (const venue of this.venues.keys()) this.thaw(venue);
    this.venues.clear();
  }
}
