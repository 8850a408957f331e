import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WebhookDeliveryRepository } from '@sts/persistence';
import { AppError } from '@sts/platform';
import { WebhookQueries } from '../../webhook.queries';

/** The event type of a test delivery (never one an endpoint subscribes to). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export interface TestDeliveryView {
  /** The delivery's `webhook-id`: find it in GET /webhooks/{id}/deliveries and at the receiver. */
  message_id: string;
}

/**
 * POST /api/v1/webhooks/{id}/test: owes the caller's endpoint one
 * `webhook.test` delivery, which the dispatcher sends (signed, retried,
 * logged) like any other. A disabled endpoint is sent nothing, so it is
 * refused (409) rather than owed a delivery that would never leave.
 */
@Injectable()
export class TestWebhookUseCase {
  private readonly deliveries: WebhookDeliveryRepository;

  constructor(
    dataSource: DataSource,
    private readonly queries: WebhookQueries,
  ) {
    this.deliveries = new WebhookDeliveryRepository(dataSource.manager);
  }

  async execute(userId: string, webhookId: string, now = new Date()): Promise<TestDeliveryView> {
    const endpoint = await this.queries.one(userId, webhookId);
    if (endpoint.disabledAt) {
      throw new AppError(
        'webhook_disabled',
        `webhook is disabled (${endpoint.disabledReason ?? 'no reason given'}): it is sent nothing; delete it and create it again`,
      );
    }
    const test = randomUUID();
    const messageId = `msg_${test.replace(/-/g, '')}`;
    await this.deliveries.enqueue([
      {
        endpointId: endpoint.id,
        messageId,
        source: `test:${test}`,
        eventType: WEBHOOK_TEST_EVENT,
        payload: {
          type: WEBHOOK_TEST_EVENT,
          timestamp: now.toISOString(),
          data: { webhook_id: endpoint.id, message: 'test' },
        },
      },
    ]);
    return { message_id: messageId };
  }
}
