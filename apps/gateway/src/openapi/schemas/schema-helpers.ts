import { VENUE_IDS } from '@sts/domain';

/** Small builders of JSON Schema 2020-12 for the API's answers. */
export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const text = (description: string, extra: Schema = {}): Schema => ({
  type: 'string',
  description,
  ...extra,
});
export const decimal = (description: string): Schema =>
  text(description, { pattern: '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$', examples: ['0.5'] });
export const timestamp = (description: string): Schema =>
  text(description, { format: 'date-time' });
export const object = (
  properties: Record<string, Schema>,
  required: string[],
  extra: Schema = {},
) => ({
  type: 'object',
  properties,
  required,
  ...extra,
});

export const EXCHANGE = text('exchange (venue) id', {
  enum: [...VENUE_IDS],
});
export const SIDE = text('order side', { enum: ['buy', 'sell'] });
