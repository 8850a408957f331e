import { readableLine } from './readable-line';
import { clipped, type WebhookRenderer } from './rendered-body';

/** Slack truncates longer messages; it advises at most 4,000 characters. */
const SLACK_TEXT_LIMIT = 4_000;

/** The three characters Slack's text formatting asks to escape (docs.slack.dev, Formatting text). */
const escapeSlack = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Slack's incoming webhooks (POST the hook URL, JSON `{text}`): the event's line as the message. */
export const renderSlack: WebhookRenderer = (payload, url) => ({
  url,
  body: JSON.stringify({ text: escapeSlack(clipped(readableLine(payload), SLACK_TEXT_LIMIT)) }),
});
