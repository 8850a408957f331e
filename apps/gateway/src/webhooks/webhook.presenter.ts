import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@sts/persistence';
import type { DeliveriesPage } from './webhook.queries';

/** How an endpoint fares: disabled (no more deliveries), failing (retrying), or active. */
export type WebhookStatus = 'active' | 'failing' | 'disabled';

/** An endpoint as every read shows it: never its secret. */
export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  format: string;
  description: string;
  created_at: string;
  status: WebhookStatus;
  failing_since: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
}

/** The create's answer: the one time the signing secret is shown. */
export type CreatedWebhookView = Pick<
  WebhookView,
  'id' | 'url' | 'events' | 'format' | 'description' | 'created_at'
> & { secret: string };

export interface WebhookDeliveryView {
  id: string;
  message_id: string;
  event_type: string;
  status: WebhookDelivery['status'];
  attempts: number;
  attempt_log: WebhookAttempt[];
  next_attempt_at: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface WebhookDeliveriesView {
  deliveries: WebhookDeliveryView[];
  /** Present when older deliveries follow: the `before` of the next page. */
  next_before?: string;
}

const isoOrNull = (at: Date | null): string | null => (at ? at.toISOString() : null);

export const webhookStatus = (endpoint: WebhookEndpoint): WebhookStatus =>
  endpoint.disabledAt ? 'disabled' : endpoint.failingSince ? 'failing' : 'active';

export const presentWebhook = (endpoint: WebhookEndpoint): WebhookView => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  format: endpoint.format,
  description: endpoint.description,
  created_at: endpoint.createdAt.toISOString(),
  status: webhookStatus(endpoint),
  failing_since: isoOrNull(endpoint.failingSince),
  disabled_at: isoOrNull(endpoint.disabledAt),
  disabled_reason: endpoint.disabledReason,
});

export const presentCreatedWebhook = (
  endpoint: WebhookEndpoint,
  secret: string,
): CreatedWebhookView => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  format: endpoint.format,
  description: endpoint.description,
  created_at: endpoint.createdAt.toISOString(),
  secret,
});

export const presentDelivery = (delivery: WebhookDelivery): WebhookDeliveryView => ({
  id: delivery.id,
  message_id: delivery.messageId,
  event_type: delivery.eventType,
  status: delivery.status,
  attempts: delivery.attempts,
  attempt_log: delivery.attemptLog.map((attempt) => ({
    at: attempt.at,
    status_code: attempt.status_code,
    error: attempt.error,
    duration_ms: attempt.duration_ms,
  })),
  next_attempt_at: isoOrNull(delivery.nextAttemptAt),
  created_at: delivery.createdAt.toISOString(),
  finished_at: isoOrNull(delivery.finishedAt),
});

export const presentDeliveries = (page: DeliveriesPage): WebhookDeliveriesView => ({
  deliveries: page.deliveries.map(presentDelivery),
  ...(page.nextBefore === undefined ? {} : { next_before: page.nextBefore }),
});
