import type { Webhook, WebhookDelivery, WebhookEventType, WebhookFormat } from '@sts/sdk';

/** What the console shows where the API has nothing yet (no attempt, no retry due). */
export const NONE = '—';

/** The event types an endpoint can ask for, in the API's order, each in a trader's words. */
export const WEBHOOK_EVENTS: ReadonlyArray<{ type: WebhookEventType; what: string }> = [
  { type: 'trade.status_changed', what: 'every status change of your trades' },
  { type: 'trade.fill', what: 'each maker fill and hedge fill' },
  { type: 'trade.failed', what: 'a trade failed or was rejected, and what it left unhedged' },
  { type: 'system.kill_switch', what: 'the operators’ kill switch set or cleared' },
  { type: 'system.maintenance', what: 'maintenance of the whole system or of a venue' },
];

/** The bodies the dispatcher can send, the API's default first. */
export const WEBHOOK_FORMATS: ReadonlyArray<{ format: WebhookFormat; label: string }> = [
  { format: 'standard', label: 'standard (Standard Webhooks JSON, signed)' },
  { format: 'discord', label: 'discord (a Discord webhook message)' },
  { format: 'slack', label: 'slack (a Slack incoming-webhook message)' },
  { format: 'telegram', label: 'telegram (a Bot API sendMessage)' },
];

/** What the create form holds: the API's fields, every event a box that is ticked or not. */
export interface WebhookForm {
  url: string;
  events: ReadonlySet<WebhookEventType>;
  format: WebhookFormat;
  description: string;
}

/**
 * The create body: the events in the API's order, the description only when
 * written; the API judges the rest (the console adds no rules of its own).
 */
export const createBodyOf = (form: WebhookForm) => ({
  url: form.url.trim(),
  events: WEBHOOK_EVENTS.map(({ type }) => type).filter((type) => form.events.has(type)),
  format: form.format,
  ...(form.description.trim() ? { description: form.description.trim() } : {}),
});

/**
 * How an endpoint's deliveries fare, in words: `failing` since when (retried),
 * `disabled` when and why (nothing more is sent: delete it and add it again).
 * Times are passed through `time` (the page's locale).
 */
export function endpointHealth(webhook: Webhook, time: (iso: string) => string): string | null {
  switch (webhook.status) {
    case 'active':
      return null;
    case 'failing':
      return webhook.failing_since === null
        ? 'deliveries failing, retried'
        : `deliveries failing since ${time(webhook.failing_since)}, retried`;
    case 'disabled': {
      const when = webhook.disabled_at === null ? '' : ` ${time(webhook.disabled_at)}`;
      const why = webhook.disabled_reason ?? 'failing too long';
      return `disabled${when}: ${why}. Nothing more is sent; delete it and add it again.`;
    }
  }
}

/** The newest attempt, if any was made. */
export const lastAttemptOf = (delivery: WebhookDelivery) => delivery.attempt_log.at(-1);

/** The newest attempt's HTTP status: a dash before any attempt, `no answer` when none came. */
export function lastStatusCode(delivery: WebhookDelivery): string {
  const last = lastAttemptOf(delivery);
  if (last === undefined) {
    return NONE;
  }
  return last.status_code === null ? 'no answer' : String(last.status_code);
}

/** Deliveries still owed: while one is, the page reads them again. */
export const anyPending = (deliveries: readonly WebhookDelivery[]): boolean =>
  deliveries.some((delivery) => delivery.status === 'pending');
