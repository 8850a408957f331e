import {
  decodeEnvelope,
  encodeEnvelope,
  envelope,
  parseStartTrade,
  START_TRADE,
  startTradeSubject,
  tradeCommandsStream,
  type StartTrade,
} from '@sts/contracts';
import type { Logger, NatsConnection } from '@sts/platform';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JsMsg,
} from '@nats-io/jetstream';
import type { OfferResult, TradeFleet } from '../fleet/trade-fleet';
import type { AccountAffinity } from './account-affinity';

/** One durable pull consumer shared by every worker: the work queue hands each command to one of them. */
export const WORKER_CONSUMER = 'workers';
const nanos = (ms: number): number => ms * 1_000_000;
/** A worker with no room sends the command back for another worker after this long. */
const FULL_REDELIVERY_MS = 2_000;

/**
 * Takes `trade.start` commands from the JetStream work queue. A command is
 * acknowledged once the worker has either acquired the trade or found it is
 * not to be run (already taken, canceled while pending); a full worker
 * returns it to the queue.
 */
export class StartCommandsConsumer {
  private messages?: ConsumerMessages;
  private running?: Promise<void>;

  constructor(
    private readonly nats: NatsConnection,
    private readonly natsPrefix: string,
    private readonly fleet: TradeFleet,
    private readonly logger: Logger,
    /** Where set, a trade is first offered to the worker running its maker account's trades. */
    private readonly affinity?: AccountAffinity,
  ) {}

  async start(): Promise<void> {
    const stream = tradeCommandsStream(this.natsPrefix).name;
    const jsm = await jetstreamManager(this.nats);
    await jsm.consumers
      .add(stream, {
        durable_name: WORKER_CONSUMER,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: startTradeSubject(this.natsPrefix),
        ack_wait: nanos(30_000),
        max_deliver: -1,
      })
      .catch(async (error: unknown) => {
        // Another worker created it first with the same settings.
        await jsm.consumers.info(stream, WORKER_CONSUMER).catch(() => {
          throw error;
        });
      });
    this.affinity?.listen();
    const consumer = await jetstream(this.nats).consumers.get(stream, WORKER_CONSUMER);
    this.messages = await consumer.consume({ max_messages: 32 });
    const messages = this.messages;
    this.running = (async () => {
      for await (const message of messages) {
        await this.handle(message);
      }
    })().catch((error: unknown) =>
      this.logger.error({ err: error }, 'start command consumer stopped'),
    );
  }

  async stop(): Promise<void> {
    this.affinity?.stop();
    this.messages?.stop();
    await this.running;
  }

  /** Publishes a start command for a trade handed over, so another worker takes it without waiting for a scan. */
  async announceHandover(tradeId: string, userId: string, epoch: string): Promise<void> {
    await jetstream(this.nats).publish(
      startTradeSubject(this.natsPrefix),
      encodeEnvelope(envelope(START_TRADE, { trade_id: tradeId, user_id: userId })),
      { msgID: `handover-${tradeId}-${epoch}` },
    );
  }

  /** Beside the trade's maker account where another worker runs it (AccountAffinity), else here. */
  private async offer(command: StartTrade, correlationId: string): Promise<OfferResult> {
    const elsewhere = await this.affinity?.forward({ command, correlationId });
    return elsewhere ?? this.fleet.offer(command.trade_id, correlationId);
  }

  private async handle(message: JsMsg): Promise<void> {
    let command;
    try {
      command = decodeEnvelope(message.data, START_TRADE, parseStartTrade);
    } catch (error) {
      this.logger.warn({ err: error }, 'dropped an invalid trade.start');
      message.term();
      return;
    }
    try {
      const result = await this.offer(command.payload, command.correlation_id);
      if (result === 'full') {
        message.nak(FULL_REDELIVERY_MS);
      } else {
        message.ack();
      }
      this.logger.debug(
        { trade_id: command.payload.trade_id, correlation_id: command.correlation_id, result },
        'trade.start',
      );
    } catch (error) {
      this.logger.warn(
        { trade_id: command.payload.trade_id, err: error },
        'trade.start failed; redelivering',
      );
      message.nak(1_000);
    }
  }
}
