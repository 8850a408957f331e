import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@sts/persistence';
import { AppError } from '@sts/platform';
import { isUuid } from '../trades/trade.queries';

/** A page of an endpoint's deliveries, and the `before` of the next one when more follow. */
export interface DeliveriesPage {
  deliveries: WebhookDelivery[];
  nextBefore?: string;
}

export const webhookNotFound = (): AppError =>
  new AppError('webhook_not_found', 'webhook not found');

/**
 * Read side of webhooks: every query filtered by the caller's user id.
 * Another user's endpoint, a deleted or unknown one and an id that is not a
 * UUID are the same 404, as trades are.
 */
@Injectable()
export class WebhookQueries {
  private readonly endpoints: WebhookEndpointRepository;
  private readonly deliveries: WebhookDeliveryRepository;

  constructor(dataSource: DataSource) {
    this.endpoints = new WebhookEndpointRepository(dataSource.manager);
    this.deliveries = new WebhookDeliveryRepository(dataSource.manager);
  }

  list(userId: string): Promise<WebhookEndpoint[]> {
    return this.endpoints.listOf(userId);
  }

  async one(userId: string, webhookId: string): Promise<WebhookEndpoint> {
    const endpoint = isUuid(webhookId) ? await this.endpoints.oneOf(userId, webhookId) : null;
    if (!endpoint) {
      throw webhookNotFound();
    }
    return endpoint;
  }

  /** Newest first; one row past `limit` is read to know whether more follow. */
  async deliveriesOf(
    userId: string,
    webhookId: string,
    limit: number,
    before?: string,
  ): Promise<DeliveriesPage> {
    const endpoint = await this.one(userId, webhookId);
    const rows = await this.deliveries.pageOf(endpoint.id, limit + 1, before);
    const deliveries = rows.slice(0, limit);
    return rows.length > limit
      ? { deliveries, nextBefore: deliveries[deliveries.length - 1]!.id }
      : { deliveries };
  }
}
