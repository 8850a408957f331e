import { TRADE_LIFECYCLE_EVENTS } from '@sts/contracts';
import type { Schema } from './schema-helpers';
import { decimal, EXCHANGE, object, ref, SIDE, text, timestamp } from './schema-helpers';

const nullable = (schema: Schema): Schema => ({
  ...schema,
  type: [schema['type'] as string, 'null'],
});
const TRADE_ID = text('the trade', { format: 'uuid' });
const MARKET = nullable(
  text("the trade's canonical market; null only if its row could not be read"),
);
const SIZE_TYPE = nullable(
  text('`base` (sizes in the market token) or `notional` (in USD)', {
    enum: ['base', 'notional', null],
  }),
);

/** A Standard Webhooks body `{type, timestamp, data}` of one event type. */
const body = (type: string, data: string, description: string): Schema =>
  object(
    {
      type: { const: type },
      timestamp: timestamp('when the event happened (UTC)'),
      data: ref(data),
    },
    ['type', 'timestamp', 'data'],
    { description, additionalProperties: false },
  );

/**
 * What the notifier sends each webhook endpoint (issue 58; docs/api.md
 * "Webhook payloads"): the `standard` body of each event type. The chat
 * formats (discord, slack, telegram) render the same events as one
 * readable line each. `data` only ever gains fields.
 */
export const WEBHOOK_PAYLOAD_SCHEMAS: Record<string, Schema> = {
  WebhookTradeStatusChangedData: object(
    {
      trade_id: TRADE_ID,
      market: MARKET,
      event: text('the lifecycle event', { enum: [...TRADE_LIFECYCLE_EVENTS] }),
      status: ref('TradeStatus'),
      filled_size: nullable(decimal("the event's filled size, else the trade's when read")),
      target_size: nullable(decimal("the trade's target size")),
      size_type: SIZE_TYPE,
      failure_reason: nullable(text("a failed or rejected trade's reason")),
      details: {
        type: 'object',
        description: "the lifecycle event's own data, as the WebSocket shows it",
      },
    },
    [
      'trade_id',
      'market',
      'event',
      'status',
      'filled_size',
      'target_size',
      'size_type',
      'failure_reason',
      'details',
    ],
  ),
  WebhookTradeFailedData: object(
    {
      trade_id: TRADE_ID,
      market: MARKET,
      status: text('`failed`, or `rejected` by the pre-flight checks', {
        enum: ['failed', 'rejected'],
      }),
      failure_reason: text('why'),
      unhedged_size: nullable(
        decimal(
          'filled on the maker leg and never hedged ("0" for a rejection); null: not reported',
        ),
      ),
      hedge_exchange: nullable(EXCHANGE),
      filled_size: nullable(decimal('filled when it failed')),
      target_size: nullable(decimal("the trade's target size")),
      size_type: SIZE_TYPE,
    },
    [
      'trade_id',
      'market',
      'status',
      'failure_reason',
      'unhedged_size',
      'hedge_exchange',
      'filled_size',
      'target_size',
      'size_type',
    ],
  ),
  WebhookTradeFillData: object(
    {
      trade_id: TRADE_ID,
      market: MARKET,
      sequence: {
        type: 'integer',
        minimum: 1,
        description: "the entry's sequence in the trade's execution log",
      },
      leg: text('which leg filled', { enum: ['maker', 'hedge'] }),
      event_type: text('the execution log entry', { enum: ['maker_fill', 'hedge_filled'] }),
      exchange: EXCHANGE,
      side: SIDE,
      price: decimal('fill price'),
      size: decimal('fill size'),
      fee: nullable(decimal('fee paid (negative: a rebate); null when the venue reported none')),
      fee_asset: nullable(text("the fee's asset")),
      liquidity: text('whether the fill made or took liquidity', { enum: ['maker', 'taker'] }),
      order_id: text('venue order id'),
      filled_at: timestamp("when the venue filled it, by the venue's clock"),
    },
    [
      'trade_id',
      'market',
      'sequence',
      'leg',
      'event_type',
      'exchange',
      'side',
      'price',
      'size',
      'fee',
      'fee_asset',
      'liquidity',
      'order_id',
      'filled_at',
    ],
  ),
  WebhookKillSwitchData: object(
    {
      enabled: { type: 'boolean', description: 'on: every trade is halted' },
      reason: text("the operator's reason"),
      updated_at: timestamp('when it was flipped'),
    },
    ['enabled', 'reason', 'updated_at'],
  ),
  WebhookMaintenanceData: object(
    {
      exchange: text('a venue id, or `_system` for the whole system'),
      enabled: { type: 'boolean', description: 'on: trading there is paused' },
      reason: text("the operator's reason"),
      updated_at: timestamp('when it was changed'),
    },
    ['exchange', 'enabled', 'reason', 'updated_at'],
  ),
  WebhookTradeStatusChanged: body(
    'trade.status_changed',
    'WebhookTradeStatusChangedData',
    'every status change of a trade (the WebSocket lifecycle events)',
  ),
  WebhookTradeFailed: body(
    'trade.failed',
    'WebhookTradeFailedData',
    'a trade failed or was rejected, naming what it left unhedged (after its trade.status_changed)',
  ),
  WebhookTradeFill: body('trade.fill', 'WebhookTradeFillData', 'a maker fill or a hedge fill'),
  WebhookKillSwitch: body(
    'system.kill_switch',
    'WebhookKillSwitchData',
    "the operators' global kill switch flipped (every endpoint that asked for it)",
  ),
  WebhookMaintenance: body(
    'system.maintenance',
    'WebhookMaintenanceData',
    'maintenance of the system or of one venue (every endpoint that asked for it)',
  ),
};

/** The OpenAPI 3.1 `webhooks`: what each event type's POST to an endpoint carries. */
export const WEBHOOKS: Record<string, Schema> = Object.fromEntries(
  (
    [
      ['trade.status_changed', 'WebhookTradeStatusChanged'],
      ['trade.failed', 'WebhookTradeFailed'],
      ['trade.fill', 'WebhookTradeFill'],
      ['system.kill_switch', 'WebhookKillSwitch'],
      ['system.maintenance', 'WebhookMaintenance'],
    ] as const
  ).map(([type, schema]) => [
    type,
    {
      post: {
        operationId: `webhook_${type.replace('.', '_')}`,
        summary: `${type}, as the notifier POSTs it to an endpoint that asked for it`,
        description:
          'Signed by Standard Webhooks: headers `webhook-id` (the same on every retry of one message), `webhook-timestamp` and `webhook-signature`; verify on the raw body (docs/api.md "Webhook payloads"). Format `standard`; the chat formats send one readable line instead.',
        tags: ['webhooks'],
        security: [],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(schema) } },
        },
        responses: {
          '2XX': { description: 'delivered: any 2xx answer' },
          default: {
            description:
              'anything else is retried (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); 410 disables the endpoint',
          },
        },
      },
    },
  ]),
);
