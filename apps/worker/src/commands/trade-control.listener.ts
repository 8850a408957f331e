import {
  decodeEnvelope,
  encodeEnvelope,
  envelope,
  parseTradeControl,
  TRADE_CONTROL,
  TRADE_CONTROL_REPLY,
  tradeControlSubject,
  type TradeControlReply,
} from '@sts/contracts';
import type { Logger, NatsConnection } from '@sts/platform';
import type { RunnerHooks } from '../fleet/trade-fleet';
import type { TradeRunner } from '../trade-runner/trade-runner';

/**
 * The owner's end of `trade.control`: while a trade runs here this worker
 * listens on its control subject and answers the gateway once the amendment
 * is read (it applies on the next quote cycle) or the cancel is noted.
 */
export class TradeControlListener implements RunnerHooks {
  constructor(
    private readonly nats: NatsConnection,
    private readonly natsPrefix: string,
    private readonly workerId: string,
    private readonly logger: Logger,
  ) {}

  attach(runner: TradeRunner): () => void {
    const subscription = this.nats.subscribe(tradeControlSubject(this.natsPrefix, runner.tradeId), {
      callback: (error, message) => {
        if (error) {
          return;
        }
        let control;
        try {
          control = decodeEnvelope(message.data, TRADE_CONTROL, parseTradeControl);
        } catch (decodeError) {
          this.logger.warn(
            { trade_id: runner.tradeId, err: decodeError },
            'dropped an invalid trade.control',
          );
          return;
        }
        void Promise.resolve(runner.onControl(control.payload))
          .catch((handlerError: unknown) => {
            this.logger.warn(
              { trade_id: runner.tradeId, err: handlerError },
              'trade.control not applied',
            );
            return false;
          })
          .then((accepted) => {
            const reply: TradeControlReply = { accepted, worker_id: this.workerId };
            message.respond(
              encodeEnvelope(
                envelope(TRADE_CONTROL_REPLY, reply, {
                  correlationId: control.correlation_id,
                  causationId: control.message_id,
                }),
              ),
            );
          });
      },
    });
    return () => subscription.unsubscribe();
  }
}
