import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WebhookDeliveryRepository, WebhookEndpointRepository } from '@sts/persistence';
import { isUuid } from '../../../trades/trade.queries';
import { webhookNotFound } from '../../webhook.queries';

/**
 * DELETE /api/v1/webhooks/{id}: the caller's endpoint is deleted and what it
 * was still owed is canceled, in one transaction (no delivery is sent to an
 * endpoint its owner deleted; the ones already made stay readable).
 */
@Injectable()
export class DeleteWebhookUseCase {
  constructor(private readonly dataSource: DataSource) {}

  async execute(userId: string, webhookId: string): Promise<void> {
    if (!isUuid(webhookId)) {
      throw webhookNotFound();
    }
    await this.dataSource.transaction(async (manager) => {
      if (!(await new WebhookEndpointRepository(manager).deleteOf(userId, webhookId))) {
        throw webhookNotFound();
      }
      await new WebhookDeliveryRepository(manager).cancelPendingOf(webhookId);
    });
  }
}
