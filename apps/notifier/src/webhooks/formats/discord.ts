import { readableLine } from './readable-line';
import { clipped, type WebhookRenderer } from './rendered-body';

/** Discord's limit on a message's `content`. */
const DISCORD_CONTENT_LIMIT = 2_000;

/**
 * Discord's Execute Webhook (POST the webhook URL, JSON
 * `{content, allowed_mentions}`; discord.com/developers/docs/resources/webhook):
 * the event's line as the message, no mention in it ever pinging anyone
 * (`allowed_mentions.parse` empty: a reason with `@everyone` stays text).
 */
export const renderDiscord: WebhookRenderer = (payload, url) => ({
  url,
  body: JSON.stringify({
    content: clipped(readableLine(payload), DISCORD_CONTENT_LIMIT),
    allowed_mentions: { parse: [] },
  }),
});
