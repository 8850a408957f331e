import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JsMsg,
} from '@nats-io/jetstream';
import { eventsStream } from '@sts/contracts';
import {
  TradeRepository,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type NewWebhookDelivery,
} from '@sts/persistence';
import { sleep, type Logger, type NatsConnection } from '@sts/platform';
import type { WebhookSeries } from '../notifier.metrics';
import { StreamEventDecoder, type StreamEvent } from '../stream-event';
import { payloadOf, routeOf, type TradeFacts } from './webhook-events';

/** The durable consumer every replica's intake shares, on the deployment's events stream. */
export const WEBHOOKS_CONSUMER = 'webhooks';

const nanos = (ms: number): number => ms * 1_000_000;
/**
 * An event not taken in this long (a replica that died holding it) goes to
 * another replica; the intake's few statements are bounded by 4 s each.
 */
const ACK_WAIT_MS = 10_000;
/** An event whose deliveries could not be written is read again after this. */
const RETRY_MS = 2_000;
/** Between attempts to consume again after the consumer was lost. */
const RESTART_MS = 1_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `msg_` and 32 hex digits, the same for an endpoint and a source however often it is read. */
export const webhookMessageId = (endpointId: string, source: string): string =>
  `msg_${createHash('sha256').update(`${endpointId}|${source}`).digest('hex').slice(0, 32)}`;

/**
 * Turns the events stream into deliveries owed: lifecycle events into
 * `trade.status_changed` (and `trade.failed` for a failure), maker and hedge
 * fills into `trade.fill`, maintenance changes into `system.maintenance` or
 * `system.kill_switch`, one delivery per event and subscribed endpoint (the
 * owner's for a trade's event, every user's for a system one).
 *
 * It reads with one durable pull consumer that every replica shares, so an
 * event is read on after restarts and replicas come and go, and acknowledges
 * an event only once its deliveries are committed: a replica that dies
 * between the two leaves it to be read again, and `enqueue` owes it once (a
 * delivery is named by its endpoint and its source, the event's message id
 * and the webhook type). One event is in hand at a time across the replicas
 * (`max_ack_pending` 1): deliveries are numbered in the stream's order, which
 * is the order each endpoint gets them. That caps the intake at one event per
 * round trip to Postgres (about a millisecond for an event nobody subscribed
 * to), far above the events a deployment makes.
 */
export class WebhookIntake {
  private readonly decoder: StreamEventDecoder;
  private readonly deliveries: WebhookDeliveryRepository;
  private readonly endpoints: WebhookEndpointRepository;
  private readonly trades: TradeRepository;
  private messages?: ConsumerMessages;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly nats: NatsConnection,
    private readonly natsPrefix: string,
    db: DataSource,
    private readonly series: WebhookSeries,
    private readonly log: Logger,
  ) {
    this.decoder = new StreamEventDecoder(natsPrefix);
    this.deliveries = new WebhookDeliveryRepository(db.manager);
    this.endpoints = new WebhookEndpointRepository(db.manager);
    this.trades = new TradeRepository(db.manager);
  }

  /** Creates the consumer unless another replica has (the events stream exists by now). */
  async start(): Promise<void> {
    await this.ensureConsumer();
    this.running = this.consumeUntilStopped();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.messages?.stop();
    await this.running;
  }

  private async ensureConsumer(): Promise<void> {
    const stream = eventsStream(this.natsPrefix).name;
    const jsm = await jetstreamManager(this.nats);
    await jsm.consumers
      .add(stream, {
        durable_name: WEBHOOKS_CONSUMER,
        ack_policy: AckPolicy.Explicit,
        // Created once, with the first replica that runs webhooks: from then on nothing is skipped.
        deliver_policy: DeliverPolicy.New,
        filter_subject: `${this.natsPrefix}.events.>`,
        ack_wait: nanos(ACK_WAIT_MS),
        max_ack_pending: 1,
        max_deliver: -1,
      })
      .catch(async (error: unknown) => {
        // Another replica created it first.
        await jsm.consumers.info(stream, WEBHOOKS_CONSUMER).catch(() => {
          throw error;
        });
      });
  }

  private async consumeUntilStopped(): Promise<void> {
    const stream = eventsStream(this.natsPrefix).name;
    while (!this.stopped) {
      try {
        const consumer = await jetstream(this.nats).consumers.get(stream, WEBHOOKS_CONSUMER);
        this.messages = await consumer.consume({ max_messages: 16, expires: 5_000 });
        for await (const message of this.messages) {
          await this.take(message);
        }
      } catch (error) {
        if (!this.stopped) {
          this.log.warn({ err: error }, 'webhook intake stopped consuming; starting again');
        }
      }
      if (!this.stopped) {
        await sleep(RESTART_MS);
        await this.ensureConsumer().catch((error: unknown) =>
          this.log.warn({ err: error }, 'webhook consumer not created yet'),
        );
      }
    }
  }

  /** One event: its deliveries committed, then acknowledged; read again when they were not. */
  private async take(message: JsMsg): Promise<void> {
    let event: StreamEvent | null;
    try {
      event = this.decoder.decode(message.subject, message.data);
    } catch (error) {
      this.log.warn(
        { err: error, subject: message.subject, stream_sequence: message.seq },
        'event rejected by the webhook intake',
      );
      message.term();
      return;
    }
    if (event === null) {
      message.ack();
      return;
    }
    try {
      const owed = await this.owedFor(event);
      const added = await this.deliveries.enqueue(owed);
      message.ack();
      this.series.enqueued(added);
      if (owed.length > 0) {
        this.log.debug(
          {
            stream_sequence: message.seq,
            correlation_id: event.message.correlation_id,
            owed: owed.length,
            added,
          },
          'webhook deliveries owed',
        );
      }
    } catch (error) {
      this.log.warn(
        { err: error, stream_sequence: message.seq },
        'webhook deliveries not written; reading the event again',
      );
      message.nak(RETRY_MS);
    }
  }

  /** The deliveries an event owes: one per webhook type it makes and endpoint subscribed to it. */
  private async owedFor(event: StreamEvent): Promise<NewWebhookDelivery[]> {
    const route = routeOf(event);
    const owed: NewWebhookDelivery[] = [];
    // Read once, and only when an endpoint wants the event.
    let trade: TradeFacts | null | undefined;
    for (const type of route.types) {
      const endpoints = await this.endpoints.subscribedTo(route.userId, type);
      if (endpoints.length === 0) {
        continue;
      }
      if (trade === undefined) {
        trade =
          route.tradeId && route.userId ? await this.tradeFacts(route.tradeId, route.userId) : null;
      }
      let payload;
      try {
        payload = payloadOf(event, type, trade);
      } catch (error) {
        // Data that breaks the log's schema: this webhook is left out, the event's others go.
        this.log.warn(
          { err: error, correlation_id: event.message.correlation_id, event_type: type },
          'webhook event not rendered',
        );
        continue;
      }
      const source = `${event.message.message_id}/${type}`;
      for (const endpoint of endpoints) {
        owed.push({
          endpointId: endpoint.id,
          messageId: webhookMessageId(endpoint.id, source),
          source,
          eventType: type,
          payload,
        });
      }
    }
    return owed;
  }

  private async tradeFacts(tradeId: string, userId: string): Promise<TradeFacts | null> {
    // Not a trade's id: no row, and no query Postgres would refuse (and the event read forever).
    if (!UUID.test(tradeId)) {
      return null;
    }
    const row = await this.trades.findOwn(tradeId, userId);
    return row
      ? {
          market: row.market,
          targetSize: row.targetSize,
          sizeType: row.sizeType,
          filledSize: row.filledSize,
          hedgeExchange: row.hedgeExchange,
        }
      : null;
  }
}
