import { randomUUID } from 'node:crypto';

/**
 * Every message on NATS is an immutable envelope. `message_id` is unique per
 * message (JetStream deduplicates on it), `correlation_id` follows one user
 * action through every service, `causation_id` names the message that caused
 * this one.
 */
export interface Envelope<T> {
  readonly message_id: string;
  readonly type: string;
  readonly correlation_id: string;
  readonly causation_id?: string;
  readonly occurred_at: string;
  readonly payload: T;
}

export class MessageValidationError extends Error {
  constructor(
    readonly messageType: string,
    problem: string,
  ) {
    super(`invalid ${messageType} message: ${problem}`);
    this.name = 'MessageValidationError';
  }
}

export interface EnvelopeOptions {
  messageId?: string;
  correlationId?: string;
  causationId?: string;
  occurredAt?: Date;
}

export function envelope<T>(type: string, payload: T, options: EnvelopeOptions = {}): Envelope<T> {
  const messageId = options.messageId ?? randomUUID();
  return Object.freeze({
    message_id: messageId,
    type,
    correlation_id: options.correlationId ?? messageId,
    ...(options.causationId ? { causation_id: options.causationId } : {}),
    occurred_at: (options.occurredAt ?? new Date()).toISOString(),
    payload: Object.freeze(payload),
  });
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const encodeEnvelope = <T>(message: Envelope<T>): Uint8Array =>
  encoder.encode(JSON.stringify(message));

/**
 * Decodes and validates an envelope on receipt. `validatePayload` returns the
 * typed payload or throws; a message that fails is rejected, never half-used.
 */
export function decodeEnvelope<T>(
  data: Uint8Array,
  expectedType: string,
  validatePayload: (payload: unknown) => T,
): Envelope<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(decoder.decode(data));
  } catch {
    throw new MessageValidationError(expectedType, 'not JSON');
  }
  if (typeof raw !== 'object' || raw === null) {
    throw new MessageValidationError(expectedType, 'not an object');
  }
  const record = raw as Record<string, unknown>;
  for (const field of ['message_id', 'type', 'correlation_id', 'occurred_at'] as const) {
    if (typeof record[field] !== 'string' || record[field] === '') {
      throw new MessageValidationError(expectedType, `${field} missing`);
    }
  }
  if (record['type'] !== expectedType) {
    throw new MessageValidationError(expectedType, `unexpected type ${String(record['type'])}`);
  }
  return Object.freeze({
    message_id: record['message_id'] as string,
    type: expectedType,
    correlation_id: record['correlation_id'] as string,
    ...(typeof record['causation_id'] === 'string' ? { causation_id: record['causation_id'] } : {}),
    occurred_at: record['occurred_at'] as string,
    payload: Object.freeze(validatePayload(record['payload'])),
  });
}
