import type {
  CreateWebhookRequest,
  StsClient,
  Webhook,
  WebhookCreated,
  WebhookDeliveries,
  WebhookDelivery,
  WebhookEventType,
  WebhookFormat,
} from '@sts/sdk';
import type { CliIo, Settings } from '../io';
import { printJson, table } from '../output';

/** `webhooks add`: the create's fields as flags; the API judges them (the CLI adds no rules). */
export interface AddWebhookFlags {
  url: string;
  /** Comma-separated event types. */
  events: string;
  format?: string;
  description?: string;
}

/** `webhooks deliveries ID [--limit n] [--before delivery-id]`. */
export interface DeliveriesFlags {
  limit?: string;
  before?: string;
}

export const SECRET_SHOWN_ONCE =
  'This secret is shown once: store it now. No command shows it again; if it is lost, delete the webhook and add it again.';

export function createRequestOf(flags: AddWebhookFlags): CreateWebhookRequest {
  return {
    url: flags.url,
    events: flags.events
      .split(',')
      .map((event) => event.trim())
      .filter((event) => event !== '') as WebhookEventType[],
    ...(flags.format !== undefined ? { format: flags.format as WebhookFormat } : {}),
    ...(flags.description !== undefined ? { description: flags.description } : {}),
  };
}

/** Registers an endpoint and prints its signing secret, the one time the API gives it. */
export async function addWebhook(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  flags: AddWebhookFlags,
): Promise<void> {
  const created = await client.createWebhook(createRequestOf(flags));
  if (settings.json) {
    return printJson(io, created);
  }
  io.stdout(webhookCreatedText(created));
}

export async function listWebhooks(client: StsClient, settings: Settings, io: CliIo) {
  const webhooks = await client.webhooks();
  if (settings.json) {
    // The API's answer as it came: GET /webhooks is `{webhooks: [...]}`.
    return printJson(io, { webhooks });
  }
  io.stdout(webhooksText(webhooks));
}

export async function showWebhook(client: StsClient, settings: Settings, io: CliIo, id: string) {
  const webhook = await client.webhook(id);
  if (settings.json) {
    return printJson(io, webhook);
  }
  io.stdout(webhookDetails(webhook));
}

export async function deleteWebhook(client: StsClient, settings: Settings, io: CliIo, id: string) {
  await client.deleteWebhook(id);
  if (settings.json) {
    // The API answers 204 with no body; --json still prints one document.
    return printJson(io, { id, deleted: true });
  }
  io.stdout(`webhook ${id} deleted: nothing more is sent to it, its pending deliveries canceled\n`);
}

export async function testWebhook(client: StsClient, settings: Settings, io: CliIo, id: string) {
  const sent = await client.testWebhook(id);
  if (settings.json) {
    return printJson(io, sent);
  }
  io.stdout(
    `test delivery ${sent.message_id} owed to webhook ${id}: sts webhooks deliveries ${id} shows how it fares\n`,
  );
}

export async function listDeliveries(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  id: string,
  flags: DeliveriesFlags,
) {
  const page = await client.webhookDeliveries(id, {
    ...(flags.limit !== undefined ? { limit: Number(flags.limit) } : {}),
    ...(flags.before !== undefined ? { before: flags.before } : {}),
  });
  if (settings.json) {
    return printJson(io, page);
  }
  io.stdout(deliveriesText(id, page));
}

const orDash = (value: string | number | null): string => (value === null ? '-' : String(value));

/** The endpoint's health in words: since when it fails, or why it was disabled. */
export function statusNote(webhook: Webhook): string {
  switch (webhook.status) {
    case 'active':
      return 'active';
    case 'failing':
      return `failing since ${orDash(webhook.failing_since)} (deliveries retried)`;
    case 'disabled':
      return `disabled at ${orDash(webhook.disabled_at)}: ${orDash(webhook.disabled_reason)} (sent nothing more; delete it and add it again)`;
  }
}

/** What the owner chose: the events, the body's format, their note, and when. */
const choiceRows = (webhook: WebhookCreated | Webhook): Array<[string, string]> => [
  ['events', webhook.events.join(', ')],
  ['format', webhook.format],
  ['description', webhook.description || '-'],
  ['created', webhook.created_at],
];

const rowsText = (rows: Array<[string, string]>): string =>
  rows.map(([name, value]) => `${name.padEnd(12)} ${value}`).join('\n');

export function webhookCreatedText(created: WebhookCreated): string {
  const rows = rowsText([
    ['webhook', created.id],
    ['url', created.url],
    ...choiceRows(created),
    ['secret', created.secret],
  ]);
  return `${rows}\n${SECRET_SHOWN_ONCE}\n`;
}

export function webhookDetails(webhook: Webhook): string {
  const rows = rowsText([
    ['webhook', webhook.id],
    ['url', webhook.url],
    ['status', statusNote(webhook)],
    ...choiceRows(webhook),
  ]);
  return `${rows}\n`;
}

export function webhooksText(webhooks: readonly Webhook[]): string {
  if (webhooks.length === 0) {
    return 'no webhooks\n';
  }
  const rows = [
    ['ID', 'STATUS', 'FORMAT', 'EVENTS', 'URL', 'DESCRIPTION'],
    ...webhooks.map((webhook) => [
      webhook.id,
      webhook.status,
      webhook.format,
      webhook.events.join(','),
      webhook.url,
      webhook.description,
    ]),
  ];
  return `${table(rows)}\n`;
}

/** The newest attempt's answer: its HTTP status (`-` none yet, or no answer) and its error. */
const lastAttempt = (delivery: WebhookDelivery) => delivery.attempt_log.at(-1);

export function deliveriesText(id: string, page: WebhookDeliveries): string {
  if (page.deliveries.length === 0) {
    return 'no deliveries\n';
  }
  const rows = [
    [
      'DELIVERY',
      'EVENT',
      'STATUS',
      'ATTEMPTS',
      'LAST CODE',
      'NEXT ATTEMPT',
      'CREATED',
      'MESSAGE',
      'LAST ERROR',
    ],
    ...page.deliveries.map((delivery) => {
      const last = lastAttempt(delivery);
      return [
        delivery.id,
        delivery.event_type,
        delivery.status,
        String(delivery.attempts),
        orDash(last?.status_code ?? null),
        orDash(delivery.next_attempt_at),
        delivery.created_at,
        delivery.message_id,
        last?.error ?? '',
      ];
    }),
  ];
  const more =
    page.next_before === undefined
      ? ''
      : `older deliveries: sts webhooks deliveries ${id} --before ${page.next_before}\n`;
  return `${table(rows)}\n${more}`;
}
