import type { WebhookRenderer } from './rendered-body';

/** Standard Webhooks: the body `{type, timestamp, data}` itself, signed. */
export const renderStandard: WebhookRenderer = (payload, url) => ({
  url,
  body: JSON.stringify({ type: payload.type, timestamp: payload.timestamp, data: payload.data }),
});
