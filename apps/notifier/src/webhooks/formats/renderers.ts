import type { WebhookFormat } from '@sts/persistence';
import { renderDiscord } from './discord';
import type { WebhookRenderer } from './rendered-body';
import { renderSlack } from './slack';
import { renderStandard } from './standard';
import { renderTelegram } from './telegram';

/** The renderer of each endpoint format. */
export const RENDERERS: Readonly<Record<WebhookFormat, WebhookRenderer>> = {
  standard: renderStandard,
  discord: renderDiscord,
  slack: renderSlack,
  telegram: renderTelegram,
};
