import type { WebhookPayload } from '../webhook-events';

/** What is POSTed for one delivery: the JSON body and the URL it goes to. */
export interface RenderedBody {
  url: string;
  body: string;
}

/** Renders a delivery's body for one format, for the endpoint's URL; throws when it cannot. */
export type WebhookRenderer = (payload: WebhookPayload, url: string) => RenderedBody;

/** A line cut to a chat service's limit, marked as cut. */
export const clipped = (line: string, limit: number): string =>
  line.length <= limit ? line : `${line.slice(0, limit - 1)}…`;
