import {
  decodeEnvelope,
  encodeEnvelope,
  envelope,
  parseStartTrade,
  parseTradeOfferReply,
  TRADE_OFFER,
  TRADE_OFFER_REPLY,
  tradeOfferSubject,
  type StartTrade,
  type TradeOfferReply,
} from '@sts/contracts';
import type { Logger, NatsConnection } from '@sts/platform';
import type { OfferResult, TradeFleet } from '../fleet/trade-fleet';
import type { LeaseRepository } from '../lease/lease.repository';
import type { WorkerMetrics } from '../metrics/worker-metrics';
import { answerRequests } from './request-answers';

/** How long a forwarded offer may take before the worker the command reached runs the trade itself. */
const FORWARD_TIMEOUT_MS = 1_000;
/** The most owners of an account asked before the worker runs the trade itself. */
const MAX_OWNERS_ASKED = 3;

/** A start command as the worker it reached received it. */
export interface StartOffer {
  command: StartTrade;
  correlationId: string;
}

/**
 * Runs a new trade beside its maker account's other trades. A worker that
 * takes a start command first asks which workers run trades on the same
 * maker account (venue and wallet); when it runs none and another does, it
 * offers the trade to that worker (`trade.offer`) and acknowledges the
 * command on its answer. One account session then carries all of the
 * account's trades: one stream and one set of reads, and their re-quotes in
 * the venue's batched actions, which form within one worker only (two
 * trades of a Hyperliquid wallet on one worker re-quote for the weight of
 * one). Nothing waits on it: no answer within FORWARD_TIMEOUT_MS, or a
 * `full` one, and the worker runs the trade itself as before. A trade is
 * claimed by a compare-and-set on its row, so a late answer never runs it
 * twice.
 */
export class AccountAffinity {
  private unsubscribe?: () => void;

  constructor(
    private readonly nats: NatsConnection,
    private readonly natsPrefix: string,
    private readonly workerId: string,
    private readonly leases: Pick<LeaseRepository, 'makerAccountOwners'>,
    private readonly fleet: Pick<TradeFleet, 'offer'>,
    private readonly metrics: Pick<WorkerMetrics, 'recordStartOffer'>,
    private readonly logger: Logger,
  ) {}

  /** Answers the offers other workers forward to this one. */
  listen(): void {
    this.unsubscribe = answerRequests(this.nats, {
      subject: tradeOfferSubject(this.natsPrefix, this.workerId),
      type: TRADE_OFFER,
      parse: parseStartTrade,
      replyType: TRADE_OFFER_REPLY,
      answer: async (offer): Promise<TradeOfferReply> => ({
        result: await this.fleet
          .offer(offer.payload.trade_id, offer.correlation_id)
          .catch((offerError: unknown): OfferResult => {
            this.logger.warn(
              { trade_id: offer.payload.trade_id, err: offerError },
              'trade.offer failed here; the worker that forwarded it runs the trade',
            );
            return 'full';
          }),
      }),
      logger: this.logger,
    });
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /**
   * Offers the trade to the workers running its maker account's trades,
   * most first, when this one runs none of them: the first answer that is
   * not `full`, or null when this worker is to run the trade itself (it runs
   * one of them, nobody does, or none of them answered or had room). A
   * worker handing its trades over stops answering first, so the next
   * owner of the account is asked at once.
   */
  async forward(offer: StartOffer): Promise<OfferResult | null> {
    const owners = await this.leases
      .makerAccountOwners(offer.command.trade_id)
      .catch((): string[] => []);
    if (owners.length === 0 || owners.includes(this.workerId)) {
      return null;
    }
    for (const owner of owners.slice(0, MAX_OWNERS_ASKED)) {
      const result = await this.ask(owner, offer);
      if (result !== null && result !== 'full') {
        this.metrics.recordStartOffer('taken_there');
        return result;
      }
    }
    this.metrics.recordStartOffer('run_here');
    return null;
  }

  /** One owner's answer to the offer; null when it gave none in time. */
  private async ask(
    owner: string,
    { command, correlationId }: StartOffer,
  ): Promise<OfferResult | null> {
    try {
      const answer = await this.nats.request(
        tradeOfferSubject(this.natsPrefix, owner),
        encodeEnvelope(envelope(TRADE_OFFER, command, { correlationId })),
        { timeout: FORWARD_TIMEOUT_MS },
      );
      const { result } = decodeEnvelope(
        answer.data,
        TRADE_OFFER_REPLY,
        parseTradeOfferReply,
      ).payload;
      this.logger.debug(
        { trade_id: command.trade_id, worker: owner, result },
        'trade.start offered beside its account',
      );
      return result;
    } catch (error) {
      this.logger.info(
        { trade_id: command.trade_id, worker: owner, err: error },
        "a worker of the trade's maker account did not answer its offer",
      );
      return null;
    }
  }
}
