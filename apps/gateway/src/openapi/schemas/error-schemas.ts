import { ERROR_CODES } from '@sts/platform';
import { RISK_LIMIT_NAMES } from '@sts/persistence';
import type { Schema } from './schema-helpers';
import { decimal, ref, text, object } from './schema-helpers';

const errorCodes = [...ERROR_CODES];

/** The error body every refusal carries, and its codes. */
export const ERROR_SCHEMAS: Record<string, Schema> = {
  ErrorCode: text('machine code (decisions section 4 and the API notes, docs/api.md)', {
    enum: errorCodes,
  }),
  Error: object(
    {
      error: text('human-readable text'),
      code: ref('ErrorCode'),
      reason: text(
        'operator text of a maintenance, or the dependency a 503 service_unavailable lost (postgres, nats, redis, budget_service, identity_provider, a venue)',
      ),
      exchange: text('maker_cap_exceeded, rate_budget_exhausted: the exchange'),
      cap: { type: 'integer', description: 'maker_cap_exceeded: the cap' },
      active: { type: 'integer', description: 'maker_cap_exceeded: trades counted' },
      leg: text('rate_budget_exhausted: the budget refused', { enum: ['maker', 'hedge'] }),
      limit_per_s: { type: 'integer', description: "rate_budget_exhausted: the account's limit" },
      holders: { type: 'integer', description: 'rate_budget_exhausted: trades sharing it' },
      min_trade_budget: {
        type: 'integer',
        description: 'rate_budget_exhausted: the minimum share',
      },
      min_pace_per_min: {
        type: 'integer',
        description:
          'rate_budget_exhausted by a per-IP limit: the minimum share of it, requests a minute',
      },
      limit: text('risk_limit_exceeded: the limit the request would break', {
        enum: [...RISK_LIMIT_NAMES],
      }),
      limit_value: decimal('risk_limit_exceeded: its value (USD for a notional)'),
      would_be: decimal('risk_limit_exceeded: what the request would make it'),
    },
    ['error', 'code'],
    { additionalProperties: false },
  ),
};
