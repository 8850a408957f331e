import {
  envelope,
  MAINTENANCE_CHANGED,
  TRADE_FILL,
  TRADE_LIFECYCLE,
  type MaintenanceChanged,
  type TradeFill,
  type TradeLifecycle,
} from '@sts/contracts';
import { join } from 'node:path';
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from '@sts/persistence';
import { WebhookConformance } from '@sts/testing';
import type { StreamEvent } from '../stream-event';
import { payloadOf, routeOf, type TradeFacts } from './webhook-events';
import { RENDERERS } from './formats/renderers';

const TRADE_ID = '8f14e45f-ceea-467f-a0a6-1d2b7b1c2d3e';
const USER_ID = 'user-1';
const TRADE: TradeFacts = {
  market: 'BTC',
  targetSize: '0.01',
  sizeType: 'base',
  filledSize: '0.004',
  hedgeExchange: 'hyperliquid',
};
const REASON =
  'hedge timed out after 10000 ms on hyperliquid; unhedged size 0.002 BTC on hyperliquid';

const lifecycle = (payload: Partial<TradeLifecycle>): StreamEvent => ({
  kind: 'lifecycle',
  message: envelope(TRADE_LIFECYCLE, {
    event: 'trade.completed',
    trade_id: TRADE_ID,
    user_id: USER_ID,
    status: 'completed',
    timestamp: '2026-12-03T10:00:00.000Z',
    data: {},
    ...payload,
  }),
});
const fill = (payload: Partial<TradeFill>): StreamEvent => ({
  kind: 'fill',
  message: envelope(TRADE_FILL, {
    trade_id: TRADE_ID,
    user_id: USER_ID,
    sequence: 7,
    event_type: 'maker_fill',
    created_at: '2026-12-03T10:00:01.250Z',
    data: {},
    ...payload,
  }),
});
const maintenance = (payload: Partial<MaintenanceChanged>): StreamEvent => ({
  kind: 'maintenance',
  message: envelope(MAINTENANCE_CHANGED, {
    exchange: 'hyperliquid',
    enabled: true,
    reason: 'venue upgrade',
    updated_by: 'ops-alice',
    updated_at: '2026-12-03T09:00:00.000Z',
    ...payload,
  }),
});

const completed = lifecycle({
  data: {
    filled_size: '0.01',
    target_size: '0.01',
    residual_unhedged: '0',
    residual_unwound: '0',
  },
});
const failed = lifecycle({
  event: 'trade.failed',
  status: 'failed',
  data: {
    filled_size: '0.006',
    target_size: '0.01',
    residual_unhedged: '0',
    residual_unwound: '0',
    failure_reason: REASON,
    unhedged_size: '0.002',
  },
});
const makerFill = fill({
  data: {
    exchange: 'paradex',
    market: 'BTC',
    side: 'buy',
    price: '50000.5',
    size: '0.01',
    order_id: 'o-1',
    client_order_id: 'c-1',
    fully_filled: true,
    timestamp_ms: Date.parse('2026-12-03T10:00:01.200Z'),
    fill_id: 'f-1',
    fee: '-0.01',
    fee_asset: 'USDC',
    liquidity: 'maker',
  },
});
const hedgeFill = fill({
  sequence: 9,
  event_type: 'hedge_filled',
  data: {
    exchange: 'hyperliquid',
    side: 'sell',
    price: '49995',
    size: '0.01',
    order_id: 'ho-1',
    timestamp_ms: Date.parse('2026-12-03T10:00:01.400Z'),
    client_order_id: 'h-1',
    fee: '0.22',
    fee_asset: 'USDC',
    liquidity: 'taker',
  },
});
const killSwitch = maintenance({ exchange: '_kill_switch', reason: 'venue outage' });
const venueMaintenance = maintenance({});
const systemMaintenanceOff = maintenance({ exchange: '_system', enabled: false, reason: '' });

/** Each event type's body, and the one line a chat shows for it (docs/api.md, Webhook payloads). */
const CASES: Array<[string, StreamEvent, WebhookEventType, string]> = [
  [
    'a completed trade',
    completed,
    'trade.status_changed',
    'Trade 8f14e45f… BTC: completed, filled 0.01 of 0.01',
  ],
  [
    'a failed trade’s status',
    failed,
    'trade.status_changed',
    `Trade 8f14e45f… BTC: failed, filled 0.006 of 0.01 (${REASON})`,
  ],
  [
    'a failed trade',
    failed,
    'trade.failed',
    `Trade 8f14e45f… BTC failed, unhedged size 0.002 on hyperliquid: ${REASON}`,
  ],
  [
    'a maker fill',
    makerFill,
    'trade.fill',
    'Trade 8f14e45f… BTC maker fill on paradex: buy 0.01 at 50000.5',
  ],
  [
    'a hedge fill',
    hedgeFill,
    'trade.fill',
    'Trade 8f14e45f… BTC hedge fill on hyperliquid: sell 0.01 at 49995',
  ],
  ['the kill switch', killSwitch, 'system.kill_switch', 'Kill switch ON: venue outage'],
  [
    'a venue’s maintenance',
    venueMaintenance,
    'system.maintenance',
    'Maintenance ON for hyperliquid: venue upgrade',
  ],
  [
    'the system’s maintenance',
    systemMaintenanceOff,
    'system.maintenance',
    'System maintenance OFF',
  ],
];

describe('webhook events', () => {
  it('routes lifecycle events, maker and hedge fills and switches to their webhook types', () => {
    expect(routeOf(completed)).toEqual({
      types: ['trade.status_changed'],
      userId: USER_ID,
      tradeId: TRADE_ID,
    });
    expect(routeOf(failed).types).toEqual(['trade.status_changed', 'trade.failed']);
    expect(routeOf(makerFill).types).toEqual(['trade.fill']);
    expect(routeOf(hedgeFill).types).toEqual(['trade.fill']);
    expect(routeOf(fill({ event_type: 'hedge_outcome' })).types).toEqual([]);
    expect(routeOf(killSwitch)).toEqual({
      types: ['system.kill_switch'],
      userId: null,
      tradeId: null,
    });
    expect(routeOf(systemMaintenanceOff).types).toEqual(['system.maintenance']);
  });

  it('builds the documented Standard Webhooks body of each type', () => {
    expect(payloadOf(completed, 'trade.status_changed', TRADE)).toEqual({
      type: 'trade.status_changed',
      timestamp: '2026-12-03T10:00:00.000Z',
      data: {
        trade_id: TRADE_ID,
        market: 'BTC',
        event: 'trade.completed',
        status: 'completed',
        filled_size: '0.01',
        target_size: '0.01',
        size_type: 'base',
        failure_reason: null,
        details: {
          filled_size: '0.01',
          target_size: '0.01',
          residual_unhedged: '0',
          residual_unwound: '0',
        },
      },
    });
    expect(payloadOf(failed, 'trade.failed', TRADE)).toEqual({
      type: 'trade.failed',
      timestamp: '2026-12-03T10:00:00.000Z',
      data: {
        trade_id: TRADE_ID,
        market: 'BTC',
        status: 'failed',
        failure_reason: REASON,
        unhedged_size: '0.002',
        hedge_exchange: 'hyperliquid',
        filled_size: '0.006',
        target_size: '0.01',
        size_type: 'base',
      },
    });
    expect(payloadOf(hedgeFill, 'trade.fill', TRADE)).toEqual({
      type: 'trade.fill',
      timestamp: '2026-12-03T10:00:01.250Z',
      data: {
        trade_id: TRADE_ID,
        market: 'BTC',
        sequence: 9,
        leg: 'hedge',
        event_type: 'hedge_filled',
        exchange: 'hyperliquid',
        side: 'sell',
        price: '49995',
        size: '0.01',
        fee: '0.22',
        fee_asset: 'USDC',
        liquidity: 'taker',
        order_id: 'ho-1',
        filled_at: '2026-12-03T10:00:01.400Z',
      },
    });
    expect(payloadOf(killSwitch, 'system.kill_switch', null)).toEqual({
      type: 'system.kill_switch',
      timestamp: '2026-12-03T09:00:00.000Z',
      data: { enabled: true, reason: 'venue outage', updated_at: '2026-12-03T09:00:00.000Z' },
    });
    expect(payloadOf(venueMaintenance, 'system.maintenance', null).data).toEqual({
      exchange: 'hyperliquid',
      enabled: true,
      reason: 'venue upgrade',
      updated_at: '2026-12-03T09:00:00.000Z',
    });
  });

  it('names the trade’s own figures when the event does not, and 0 unhedged for a rejection', () => {
    const started = lifecycle({ event: 'trade.started', status: 'active', data: {} });
    expect(payloadOf(started, 'trade.status_changed', TRADE).data).toMatchObject({
      filled_size: '0.004',
      target_size: '0.01',
      size_type: 'base',
    });
    const rejected = lifecycle({
      event: 'trade.failed',
      status: 'rejected',
      data: { failure_reason: 'no balance on paradex' },
    });
    expect(payloadOf(rejected, 'trade.failed', null).data).toMatchObject({
      market: null,
      status: 'rejected',
      unhedged_size: '0',
    });
  });

  it('sends each type as the API description’s webhooks describe it (apps/gateway/openapi.json)', () => {
    const described = new WebhookConformance(join(__dirname, '../../../gateway/openapi.json'));
    expect(described.types.sort()).toEqual([...new Set(CASES.map(([, , type]) => type))].sort());
    for (const [name, event, type] of CASES) {
      expect({ name, problems: described.problemsOf(type, payloadOf(event, type, TRADE)) }).toEqual(
        { name, problems: [] },
      );
    }
    // And it bites: a fill without its price is not what the description promises.
    const priceless = payloadOf(makerFill, 'trade.fill', TRADE);
    delete (priceless.data as Record<string, unknown>)['price'];
    expect(described.problemsOf('trade.fill', priceless)).toEqual([
      "webhook trade.fill: body/data must have required property 'price'",
    ]);
  });

  it('refuses a fill whose data breaks the execution log’s schema', () => {
    expect(() => payloadOf(fill({ data: { size: 'lots' } }), 'trade.fill', TRADE)).toThrow();
  });
});

describe('webhook formats', () => {
  const DISCORD = 'https://discord.com/api/webhooks/123/token';
  const SLACK = 'https://hooks.slack.com/services/T0/B0/secret';
  const TELEGRAM = 'https://api.telegram.org/bot123:abc/sendMessage?chat_id=-1001234';

  it.each(CASES)('renders %s in every format', (_name, event, type, line) => {
    const payload = payloadOf(event, type, TRADE);
    expect(RENDERERS.standard(payload, 'https://example.com/hooks')).toEqual({
      url: 'https://example.com/hooks',
      body: JSON.stringify(payload),
    });
    expect(JSON.parse(RENDERERS.discord(payload, DISCORD).body)).toEqual({
      content: line,
      allowed_mentions: { parse: [] },
    });
    expect(JSON.parse(RENDERERS.slack(payload, SLACK).body)).toEqual({ text: line });
    expect(RENDERERS.telegram(payload, TELEGRAM)).toEqual({
      url: TELEGRAM,
      body: JSON.stringify({ chat_id: '-1001234', text: line }),
    });
  });

  it('names a pause’s reason, a notional trade’s unit and a rejection as docs/api.md shows', () => {
    const line = (event: StreamEvent, type: WebhookEventType, trade: TradeFacts | null) =>
      JSON.parse(RENDERERS.slack(payloadOf(event, type, trade), SLACK).body).text;
    const paused = lifecycle({
      event: 'trade.paused',
      status: 'paused',
      data: { reason: 'exchange_maintenance', exchange: 'paradex' },
    });
    expect(line(paused, 'trade.status_changed', TRADE)).toBe(
      'Trade 8f14e45f… BTC: paused, filled 0.004 of 0.01 (exchange_maintenance)',
    );
    const notional = lifecycle({
      event: 'trade.started',
      status: 'active',
      data: { target_size: '1000', size_type: 'notional' },
    });
    expect(
      line(notional, 'trade.status_changed', { ...TRADE, filledSize: '500', sizeType: 'notional' }),
    ).toBe('Trade 8f14e45f… BTC: active, filled 500 of 1000 USD');
    const rejected = lifecycle({
      event: 'trade.failed',
      status: 'rejected',
      data: { failure_reason: 'no balance on paradex' },
    });
    expect(line(rejected, 'trade.failed', TRADE)).toBe(
      'Trade 8f14e45f… BTC rejected: no balance on paradex',
    );
    expect(
      line(
        maintenance({ exchange: '_kill_switch', enabled: false, reason: '' }),
        'system.kill_switch',
        null,
      ),
    ).toBe('Kill switch OFF');
  });

  it('renders the owner’s test delivery (POST /webhooks/{id}/test) in every format', () => {
    const payload = {
      type: WEBHOOK_TEST_EVENT,
      timestamp: '2026-12-03T10:00:00.000Z',
      data: { webhook_id: TRADE_ID, message: 'test' },
    };
    const line = 'Webhook test: this chat receives your spread-trading events';
    expect(RENDERERS.standard(payload, DISCORD).body).toBe(JSON.stringify(payload));
    expect(JSON.parse(RENDERERS.slack(payload, SLACK).body)).toEqual({ text: line });
    expect(JSON.parse(RENDERERS.discord(payload, DISCORD).body).content).toBe(line);
    expect(JSON.parse(RENDERERS.telegram(payload, TELEGRAM).body).text).toBe(line);
  });

  it('escapes what Slack reads as markup, and pings nobody on Discord', () => {
    const payload = payloadOf(
      maintenance({ exchange: '_kill_switch', reason: '@everyone <!channel> P&L' }),
      'system.kill_switch',
      null,
    );
    expect(JSON.parse(RENDERERS.slack(payload, SLACK).body)).toEqual({
      text: 'Kill switch ON: @everyone &lt;!channel&gt; P&amp;L',
    });
    expect(JSON.parse(RENDERERS.discord(payload, DISCORD).body)).toEqual({
      content: 'Kill switch ON: @everyone <!channel> P&L',
      allowed_mentions: { parse: [] },
    });
  });

  it('cuts a line to the service’s limit, and refuses a Telegram URL without its chat', () => {
    const payload = payloadOf(
      maintenance({ exchange: '_kill_switch', reason: 'x'.repeat(5_000) }),
      'system.kill_switch',
      null,
    );
    const content = JSON.parse(RENDERERS.discord(payload, DISCORD).body).content as string;
    expect([content.length, content.endsWith('…')]).toEqual([2_000, true]);
    const text = JSON.parse(RENDERERS.telegram(payload, TELEGRAM).body).text as string;
    expect(text).toHaveLength(4_096);
    expect(() =>
      RENDERERS.telegram(payload, 'https://api.telegram.org/bot123:abc/sendMessage'),
    ).toThrow(/chat_id/);
  });
});
