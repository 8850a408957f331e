import {
  parseTradeControl,
  TRADE_CONTROL,
  TRADE_CONTROL_REPLY,
  tradeControlSubject,
  type TradeControlReply,
} from '@sts/contracts';
import type { Logger, NatsConnection } from '@sts/platform';
import type { RunnerHooks } from '../fleet/trade-fleet';
import type { TradeRunner } from '../trade-runner/trade-runner';
import { answerRequests } from './request-answers';

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
    return answerRequests(this.nats, {
      subject: tradeControlSubject(this.natsPrefix, runner.tradeId),
      type: TRADE_CONTROL,
      parse: parseTradeControl,
      replyType: TRADE_CONTROL_REPLY,
      answer: async (control): Promise<TradeControlReply> => ({
        accepted: await Promise.resolve(runner.onControl(control.payload)).catch(
          (handlerError: unknown) => {
            this.logger.warn(
              { trade_id: runner.tradeId, err: handlerError },
              'trade.control not applied',
            );
            return false;
          },
        ),
        worker_id: this.workerId,
      }),
      logFields: { trade_id: runner.tradeId },
      logger: this.logger,
    });
  }
}
