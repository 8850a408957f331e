import type { EntityManager } from 'typeorm';
import type { Envelope } from '@sts/contracts';

/**
 * Writes a message in the caller's transaction: it is published if and only
 * if the state change it announces commits. The envelope's message_id is the
 * JetStream Nats-Msg-Id, so a second publish after a crash is dropped.
 */
export async function addToOutbox<T>(
  manager: EntityManager,
  subject: string,
  message: Envelope<T>,
): Promise<void> {
  await manager.query(
    `INSERT INTO outbox (subject, message_id, payload) VALUES ($1, $2, $3)
     ON CONFLICT (message_id) DO NOTHING`,
    [subject, message.message_id, JSON.stringify(message)],
  );
}
