import type { JetStreamClient } from '@nats-io/jetstream';
import type { OutboxPublisher } from './outbox-relay';

const encoder = new TextEncoder();

/** Publishes outbox rows to JetStream with the row's message_id as Nats-Msg-Id. */
export const jetStreamPublisher =
  (jetStream: JetStreamClient): OutboxPublisher =>
  async (row) => {
    await jetStream.publish(row.subject, encoder.encode(JSON.stringify(row.payload)), {
      msgID: row.message_id,
    });
  };
