import {
  decodeEnvelope,
  encodeEnvelope,
  envelope,
  MessageValidationError,
  type BudgetFailure,
  type Envelope,
} from '@sts/contracts';
import type { BudgetAnswer, BudgetMetrics } from './budget.metrics';
import { isAppError, type Logger, type NatsConnection } from '@sts/platform';
import type { Msg, Subscription } from '@nats-io/nats-core';

export interface RequestRoute<Req, Res> {
  subject: string;
  requestType: string;
  resultType: string;
  parse(payload: unknown): Req;
  handle(request: Req, message: Envelope<Req>): Promise<Res>;
}

/**
 * Serves one request/reply subject on core NATS: decodes and validates the
 * envelope, runs the handler, answers with an envelope that carries the
 * request's correlation id. A bad request answers `invalid_request`, an
 * unreachable store `budget_unavailable`; nothing is thrown into NATS.
 * Replicas share the subject through a queue group.
 */
export class NatsRequestServer {
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly queue: string,
    private readonly logger: Logger,
    private readonly metrics?: BudgetMetrics,
  ) {}

  serve<Req, Res>(route: RequestRoute<Req, Res>): void {
    this.subscriptions.push(
      this.nc.subscribe(route.subject, {
        queue: this.queue,
        callback: (error, msg) => {
          if (error) {
            this.logger.error({ err: error, subject: route.subject }, 'subscription error');
            return;
          }
          const work: Promise<void> = this.answer(route, msg).finally(() =>
            this.inFlight.delete(work),
          );
          this.inFlight.add(work);
        },
      }),
    );
  }

  /** Stops taking requests and waits for the ones being answered. */
  async drain(): Promise<void> {
    await Promise.allSettled(this.subscriptions.map((subscription) => subscription.drain()));
    await Promise.allSettled([...this.inFlight]);
  }

  private async answer<Req, Res>(route: RequestRoute<Req, Res>, msg: Msg): Promise<void> {
    const startedAt = process.hrtime.bigint();
    let request: Envelope<unknown> | undefined;
    let result: Res | BudgetFailure;
    try {
      // The envelope first, the payload second: a reply to a bad payload still
      // carries the request's correlation id.
      request = decodeEnvelope(msg.data, route.requestType, (payload) => payload);
      const typed: Envelope<Req> = Object.freeze({
        ...request,
        payload: Object.freeze(route.parse(request.payload)),
      });
      result = await route.handle(typed.payload, typed);
    } catch (error) {
      result = this.failure(route, error, request);
    }
    this.metrics?.recordAnswer(
      route.requestType,
      result as BudgetAnswer,
      Number(process.hrtime.bigint() - startedAt) / 1e9,
    );
    if (!msg.reply) {
      return;
    }
    const reply = envelope(route.resultType, result, {
      correlationId: request?.correlation_id,
      causationId: request?.message_id,
    });
    try {
      msg.respond(encodeEnvelope(reply));
    } catch (error) {
      this.logger.warn({ err: error, subject: route.subject }, 'could not send a reply');
    }
  }

  private failure<Req, Res>(
    route: RequestRoute<Req, Res>,
    error: unknown,
    request: Envelope<unknown> | undefined,
  ): BudgetFailure {
    const context = { subject: route.subject, correlation_id: request?.correlation_id };
    if (error instanceof MessageValidationError) {
      this.logger.warn({ ...context, problem: error.message }, 'rejected an invalid request');
      return { outcome: 'failed', code: 'invalid_request', message: error.message };
    }
    if (isAppError(error) && error.code === 'budget_unavailable') {
      this.logger.warn({ ...context, err: error }, 'budget store unavailable');
      return { outcome: 'failed', code: 'budget_unavailable', message: error.message };
    }
    if (isAppError(error) && error.code === 'conflict') {
      return { outcome: 'failed', code: 'conflict', message: error.message };
    }
    this.logger.error({ ...context, err: error }, 'budget request failed');
    return { outcome: 'failed', code: 'internal_error', message: 'the budget service failed' };
  }
}
