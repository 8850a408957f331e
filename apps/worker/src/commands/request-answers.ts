import { decodeEnvelope, encodeEnvelope, envelope, type Envelope } from '@sts/contracts';
import type { Logger, NatsConnection } from '@sts/platform';

/** One request subject this worker answers (core NATS request/reply). */
export interface RequestAnswering<Q, R> {
  subject: string;
  /** The request's message type, and its payload check (a request that fails it is dropped). */
  type: string;
  parse: (payload: unknown) => Q;
  replyType: string;
  /** The reply to a valid request; never rejects (the caller decides what a failure answers). */
  answer: (request: Envelope<Q>) => Promise<R>;
  /** Fields every line logged for the subject carries (the trade it is about, say). */
  logFields?: Record<string, unknown>;
  logger: Logger;
}

/**
 * Answers the requests of one subject: each decoded and checked, answered
 * in an envelope of `replyType` that carries the request's correlation id
 * and names it as the cause. What unsubscribes is returned.
 */
export function answerRequests<Q, R>(
  nats: NatsConnection,
  answering: RequestAnswering<Q, R>,
): () => void {
  const { type, replyType, logger } = answering;
  const subscription = nats.subscribe(answering.subject, {
    callback: (error, message) => {
      if (error) {
        return;
      }
      let request: Envelope<Q>;
      try {
        request = decodeEnvelope(message.data, type, answering.parse);
      } catch (decodeError) {
        logger.warn({ ...answering.logFields, err: decodeError }, `dropped an invalid ${type}`);
        return;
      }
      void answering.answer(request).then((reply) =>
        message.respond(
          encodeEnvelope(
            envelope(replyType, reply, {
              correlationId: request.correlation_id,
              causationId: request.message_id,
            }),
          ),
        ),
      );
    },
  });
  return () => subscription.unsubscribe();
}
