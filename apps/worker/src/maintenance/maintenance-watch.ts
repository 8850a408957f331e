import type { DataSource } from 'typeorm';
import { maintenanceChangedSubject } from '@sts/contracts';
import { KILL_SWITCH_SCOPE, SYSTEM_SCOPE, type VenueId } from '@sts/domain';
import { switchesInForce } from '@sts/persistence';
import { PeriodicTask, type Logger, type NatsConnection } from '@sts/platform';
import type { Halt } from '../trade-runner/runner-services';

interface Switches {
  /** Venues (and `_system`) in maintenance. */
  maintenance: Set<string>;
  killSwitch: boolean;
}

/**
 * The operators' switches as this worker knows them. Postgres holds them; a
 * `maintenance.changed` message only makes the worker read them at once, and
 * a poll reads them anyway, so a missed message never leaves a trade quoting
 * during maintenance (and a late message can never undo a newer read).
 */
export class MaintenanceWatch {
  private switches: Switches = { maintenance: new Set(), killSwitch: false };
  private subscription?: { unsubscribe(): void };
  private readonly poll: PeriodicTask;
  private reading?: Promise<void>;
  private readAgain = false;
  private stopped = false;

  constructor(
    private readonly db: DataSource,
    private readonly nats: NatsConnection,
    private readonly natsPrefix: string,
    private readonly pollMs: number,
    private readonly onChange: () => void,
    private readonly logger: Logger,
  ) {
    this.poll = new PeriodicTask(() => this.refresh(), { intervalMs: pollMs });
  }

  async start(): Promise<void> {
    await this.read();
    this.subscription = this.nats.subscribe(maintenanceChangedSubject(this.natsPrefix), {
      callback: () => void this.refresh(),
    });
    this.poll.start();
  }

  stop(): void {
    this.stopped = true;
    this.subscription?.unsubscribe();
    void this.poll.stop();
  }

  /** The halt for a trade on these venues: the kill switch, then system maintenance, then a venue's. */
  haltFor(venues: readonly VenueId[]): Halt | null {
    if (this.switches.killSwitch) {
      return { reason: 'kill_switch', exchange: KILL_SWITCH_SCOPE };
    }
    if (this.switches.maintenance.has(SYSTEM_SCOPE)) {
      return { reason: 'maintenance', exchange: SYSTEM_SCOPE };
    }
    const venue = venues.find((id) => this.switches.maintenance.has(id));
    return venue ? { reason: 'maintenance', exchange: venue } : null;
  }

  /** Reads the switches now (coalesced), notifying when they changed. */
  refresh(): Promise<void> {
    if (this.stopped) {
      return Promise.resolve();
    }
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = this.read()
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'could not read maintenance switches'),
      )
      .finally(() => {
        this.reading = undefined;
        if (this.readAgain) {
          this.readAgain = false;
          void this.refresh();
        }
      });
    return this.reading;
  }

  private async read(): Promise<void> {
    const next: Switches = { maintenance: new Set(), killSwitch: false };
    for (const { exchange } of await switchesInForce(this.db.manager)) {
      if (exchange === KILL_SWITCH_SCOPE) {
        next.killSwitch = true;
      } else {
        next.maintenance.add(exchange);
      }
    }
    const changed =
      next.killSwitch !== this.switches.killSwitch ||
      next.maintenance.size !== this.switches.maintenance.size ||
      [...next.maintenance].some((venue) => !this.switches.maintenance.has(venue));
    this.switches = next;
    if (changed) {
      this.logger.info(
        { maintenance: [...next.maintenance], kill_switch: next.killSwitch },
        'maintenance switches changed',
      );
      this.onChange();
    }
  }
}
