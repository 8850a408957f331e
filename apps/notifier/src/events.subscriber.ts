import { eventsStream } from '@sts/contracts';
import { ensureStreamsAtBoot, sleep, type Logger, type NatsConnection } from '@sts/platform';
import { nuid } from '@nats-io/nats-core';
import {
  jetstream,
  type JetStreamManager,
  type Consumer,
  type ConsumerMessages,
  type ConsumerNotification,
} from '@nats-io/jetstream';
import type { EventFanout } from './fanout/event-fanout';
import { StreamEventDecoder } from './stream-event';
import { StreamLagWatch } from './stream-lag-watch';

type ConsumerStatus = ConsumerNotification['type'];

/**
 * Missed heartbeats, a lost or re-created consumer: worth a warning (the
 * ConsumerEvents of nats.js 2). The rest (pull requests, server heartbeats,
 * discards, resets, exceeded limits) is pull bookkeeping, logged at debug.
 */
const NOTABLE_STATUSES: ReadonlySet<ConsumerStatus> = new Set<ConsumerStatus>([
  'heartbeats_missed',
  'consumer_not_found',
  'stream_not_found',
  'consumer_deleted',
  'ordered_consumer_recreated',
  'no_responders',
]);

/** Between attempts to start the consumer afresh. */
const RESTART_RETRY_MS = 1_000;
/**
 * Silence after which the consumer is started afresh from the last delivered
 * sequence, whatever nats.js says: an open pull brings a server heartbeat
 * every second, so five seconds without one or an event mean the consumer is
 * gone. The ordered consumer re-creates itself after two missed heartbeats,
 * but where that fails (a stream or meta leader on the far side of a
 * partition) nats.js backs off for up to a minute, and while it does it may
 * report nothing at all (its missed-heartbeat count stopped at two in the
 * partitions suite's cut-infra).
 */
const SILENT_MS = 5_000;
const WATCH_EVERY_MS = 1_000;
/**
 * An event the stream held this long ago and the consumer has not delivered:
 * the consumer is started afresh though it heartbeats (StreamLagWatch).
 */
const STALL_MS = 5_000;

/** Why the consumer was started afresh (`sts_notifier_events_consumer_restarts_total`). */
export type RestartReason = 'silent' | 'stalled';

/** What the notifier's metrics read of the consumer when scraped. */
export interface EventsConsumerFigures {
  /** The last stream sequence handed to the fan-out. */
  delivered: number;
  /** Events the stream held beyond it at the last reading of the stream. */
  lag: number;
  restarts: Readonly<Record<RestartReason, number>>;
}

/**
 * Reads the lifecycle, fill and maintenance events from the events stream with an
 * ordered consumer of this replica's own, so every replica sees every event.
 *
 * Why JetStream rather than a core subscription: the ordered consumer tracks
 * the last stream sequence it delivered. When the NATS connection drops and
 * comes back (or the server loses the ephemeral consumer), it re-creates the
 * consumer from the next sequence, so events published meanwhile are pushed
 * late rather than lost (within the stream's 24 h retention). A core
 * subscription would silently miss them.
 *
 * It starts after the stream's last sequence at boot: a replica that was down
 * pushes nothing from before it started, and its clients, who lost their
 * sockets anyway, rebuild state with GET /api/v1/trades/{id} on reconnect
 * (interface: Lifecycle events). Starting at an explicit sequence rather than
 * DeliverPolicy.New keeps that guarantee even for a reconnect that happens
 * before the first event arrives.
 */
export class EventsSubscriber {
  private consumer?: Consumer;
  private messages?: ConsumerMessages;
  /** The last stream sequence handed to the fan-out. */
  private delivered = 0;
  private restarting = false;
  private stopped = false;
  /** When the consumer last showed it is alive: an event or a server heartbeat. */
  private aliveAtMs = Date.now();
  private watchdog?: NodeJS.Timeout;
  private readonly decoder: StreamEventDecoder;
  private jsm?: JetStreamManager;
  private readonly lagWatch = new StreamLagWatch(STALL_MS);
  private readingStream = false;
  private readonly restarts: Record<RestartReason, number> = { silent: 0, stalled: 0 };

  constructor(
    private readonly nats: NatsConnection,
    private readonly natsPrefix: string,
    private readonly fanout: EventFanout,
    private readonly log: Logger,
    /** NATS_REPLICAS: copies of the events stream. */
    private readonly replicas = 1,
  ) {
    this.decoder = new StreamEventDecoder(natsPrefix);
  }

  async start(): Promise<void> {
    const stream = eventsStream(this.natsPrefix);
    const jsm = await ensureStreamsAtBoot(this.nats, [stream], this.replicas, {
      onRetry: (error) => this.log.warn({ err: error }, 'JetStream not answering yet; retrying'),
    });
    this.jsm = jsm;
    const { state } = await jsm.streams.info(stream.name);
    this.delivered = state.last_seq;
    await this.consumeFromDelivered();
    this.watchdog = setInterval(() => {
      this.restartIfSilent();
      void this.restartIfStalled();
    }, WATCH_EVERY_MS);
    this.watchdog.unref();
    this.log.info(
      { stream: stream.name, from_sequence: state.last_seq + 1 },
      'events consumer started',
    );
  }

  get figures(): EventsConsumerFigures {
    return { delivered: this.delivered, lag: this.lagWatch.lag, restarts: this.restarts };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.watchdog);
    this.messages?.stop();
    await this.consumer?.delete().catch(() => false);
  }

  /** An ordered consumer of this replica's own, from the event after the last delivered. */
  private async consumeFromDelivered(): Promise<void> {
    // Server 2.9 takes a single filter; the stream's other subjects are skipped below.
    this.consumer = await jetstream(this.nats).consumers.get(eventsStream(this.natsPrefix).name, {
      // Used as is (the consumer is `<prefix>_<n>`): replicas sharing one name
      // would share one consumer and split the events between them.
      name_prefix: `notifier_${nuid.next()}`,
      opt_start_seq: this.delivered + 1,
    });
    this.messages = await this.consumer.consume({
      max_messages: 512,
      // Server heartbeats every second on the open pull: two missed ones (a
      // consumer lost by the server, a half-dead connection) make the ordered
      // consumer re-create itself from its cursor within ~2 s instead of ~30 s.
      // (nats.js 3.4's first pull on the new consumer asks only for what the
      // lost one had delivered, its full pull waits for two more missed
      // heartbeats: some events come ~3 s later still, none is lost.)
      idle_heartbeat: 1_000,
      expires: 5_000,
      callback: (message) => {
        this.aliveAtMs = Date.now();
        if (message.seq > this.delivered) {
          this.delivered = message.seq;
          this.handle(message.subject, message.data, message.seq);
        }
      },
    });
    this.aliveAtMs = Date.now();
    void this.watch(this.messages);
  }

  /** No event and no heartbeat for SILENT_MS: the consumer is started afresh. */
  private restartIfSilent(): void {
    const silentMs = Date.now() - this.aliveAtMs;
    if (silentMs < SILENT_MS || this.restarting || this.stopped) {
      return;
    }
    this.log.warn({ silent_ms: silentMs }, 'events consumer silent; starting it afresh');
    void this.restart('silent');
  }

  /**
   * Reads the stream's last sequence from its leader; a consumer that has
   * not delivered what the stream held `STALL_MS` ago is started afresh,
   * heartbeats or not. An unanswered read judges nothing (no leader: nothing
   * new can be in the stream either).
   */
  private async restartIfStalled(): Promise<void> {
    if (!this.jsm || this.readingStream || this.restarting || this.stopped) {
      return;
    }
    this.readingStream = true;
    try {
      const { state } = await this.jsm.streams.info(eventsStream(this.natsPrefix).name);
      if (this.restarting || !this.lagWatch.observe(state.last_seq, this.delivered, Date.now())) {
        return;
      }
      this.log.warn(
        { stream_last_sequence: state.last_seq, delivered_sequence: this.delivered },
        'events consumer behind the stream and not moving; starting it afresh',
      );
      void this.restart('stalled');
    } catch (error) {
      this.log.debug({ err: error }, 'events stream not read; lag not judged');
    } finally {
      this.readingStream = false;
    }
  }

  /**
   * The consumer has been silent for `SILENT_MS`, or stalled behind the
   * stream for `STALL_MS`: stopped and started afresh from the last delivered sequence, retried
   * every second until the stream answers (nothing is skipped: the new
   * consumer starts where the fan-out left off).
   */
  private async restart(reason: RestartReason): Promise<void> {
    if (this.restarting || this.stopped) {
      return;
    }
    this.restarting = true;
    this.restarts[reason] += 1;
    this.lagWatch.reset();
    this.messages?.stop();
    try {
      while (!this.stopped) {
        try {
          await this.consumeFromDelivered();
          this.log.warn({ from_sequence: this.delivered + 1 }, 'events consumer restarted');
          return;
        } catch (error) {
          this.log.warn({ err: error }, 'events consumer restart failed; retrying');
          await sleep(RESTART_RETRY_MS);
        }
      }
    } finally {
      this.restarting = false;
    }
  }

  private handle(subject: string, data: Uint8Array, sequence: number): void {
    try {
      const event = this.decoder.decode(subject, data);
      switch (event?.kind) {
        case 'maintenance':
          this.fanout.maintenanceChanged(event.message);
          break;
        case 'lifecycle':
          this.fanout.tradeLifecycle(event.message);
          break;
        case 'fill':
          this.fanout.tradeFill(event.message);
          break;
        case undefined:
          break;
      }
    } catch (error) {
      // A malformed event is dropped whole, never half-pushed; the stream keeps it for inspection.
      this.log.warn({ err: error, subject, stream_sequence: sequence }, 'event rejected');
    }
  }

  private async watch(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const status of messages.status()) {
        const { type, ...data } = status;
        const level = NOTABLE_STATUSES.has(type) ? 'warn' : 'debug';
        if (status.type === 'heartbeat') {
          this.aliveAtMs = Date.now();
        }
        this.log[level]({ consumer_status: type, data }, 'events consumer status');
      }
    } catch (error) {
      this.log.warn({ err: error }, 'events consumer status stream ended');
    }
  }
}
