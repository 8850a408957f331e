import { join } from 'node:path';
import { OpenApiConformance } from './openapi-conformance';

const DOCUMENT = join(__dirname, '../../../../apps/gateway/openapi.json');
const TRADE_ID = '8f14e45f-ceea-467a-9575-6c3f1b2a9e01';

const trade = {
  trade_id: TRADE_ID,
  user_id: 'user-1',
  market: 'BTC',
  long_exchange: 'hyperliquid',
  long_wallet: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
  short_exchange: 'paradex',
  short_wallet: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
  target_spread: '5',
  spread_condition: 'gte',
  target_size: '0.01',
  filled_size: '0',
  execution_type: 'maker_taker',
  maker_leg: 'long',
  max_slippage: '0.001',
  status: 'active',
  rate_budget: 10,
  created_at: '2026-01-05T09:30:00.000Z',
  updated_at: '2026-01-05T09:30:00.000Z',
  completed_at: null,
  size_type: 'base',
  spread_type: 'absolute',
  failure_reason: '',
  residual_unhedged: '0',
  residual_unwound: '0',
  fast_move_guard_stats: null,
  long_mode: 'paper',
  short_mode: 'live',
  costs: {
    long: { filled_size: '0', avg_price: null, fees: [], fills: 0, fills_without_fee: 0 },
    short: { filled_size: '0', avg_price: null, fees: [], fills: 0, fills_without_fee: 0 },
    realised_spread: null,
    realised_spread_after_fees: null,
    avg_hedge_slippage_bps: null,
  },
};

describe('OpenApiConformance (the gateway document)', () => {
  let conformance: OpenApiConformance;
  beforeAll(async () => {
    conformance = await OpenApiConformance.load(DOCUMENT);
  });

  const answer = (method: string, url: string, status: number, body: unknown) => ({
    method,
    url,
    status,
    // As the gateway answers: its rate limiter's headers on every routed answer.
    headers: new Headers({
      'content-type': 'application/json',
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '99',
      'x-ratelimit-reset': '1',
    }),
    body,
  });

  it('accepts a trade as the document describes it', () => {
    expect(conformance.problemsOf(answer('GET', `/api/v1/trades/${TRADE_ID}`, 200, trade))).toEqual(
      [],
    );
  });

  it('fails a trade without its status, with an unknown status value, or with an extra field', () => {
    const { status: _status, ...withoutStatus } = trade;
    expect(() =>
      conformance.assert(answer('GET', `/api/v1/trades/${TRADE_ID}`, 200, withoutStatus)),
    ).toThrow(/status/);
    expect(
      conformance.problemsOf(answer('GET', '/api/v1/trades', 200, [{ ...trade, status: 'done' }])),
    ).not.toEqual([]);
    expect(
      conformance.problemsOf(answer('GET', '/api/v1/trades', 200, [{ ...trade, secret: 'x' }])),
    ).not.toEqual([]);
  });

  it('checks formats: a trade id that is not a UUID, a timestamp that is not ISO 8601', () => {
    expect(
      conformance.problemsOf(answer('GET', '/api/v1/trades', 200, [{ ...trade, trade_id: 't-1' }])),
    ).not.toEqual([]);
    expect(
      conformance.problemsOf(
        answer('GET', '/api/v1/trades', 200, [{ ...trade, created_at: 'today' }]),
      ),
    ).not.toEqual([]);
  });

  it('fails a status the operation does not describe', () => {
    expect(conformance.problemsOf(answer('GET', '/api/v1/trades', 201, [trade]))).toEqual([
      'GET /api/v1/trades answered 201: status not described for listTrades',
    ]);
  });

  it('fails an error whose code is not one the status can carry', () => {
    const problems = conformance.problemsOf(
      answer('POST', '/api/v1/trades', 409, { error: 'busy', code: 'rate_budget_exhausted' }),
    );
    expect(problems.join('\n')).toMatch(/code/);
    expect(
      conformance.problemsOf(
        answer('POST', '/api/v1/trades', 409, {
          error: 'max 2 concurrent maker trades on paradex',
          code: 'maker_cap_exceeded',
          exchange: 'paradex',
          cap: 2,
          active: 2,
        }),
      ),
    ).toEqual([]);
  });

  it('checks an execution log entry against the schema of its event_type', () => {
    const events = (data: Record<string, unknown>) => ({
      trade_id: TRADE_ID,
      events: [
        {
          sequence: 1,
          event_type: 'hedge_sent',
          data,
          worker_id: 'w',
          created_at: trade.created_at,
        },
      ],
      has_more: false,
    });
    const url = `/api/v1/trades/${TRADE_ID}/events`;
    expect(
      conformance.problemsOf(
        answer('GET', url, 200, events({ exchange: 'paradex', side: 'sell', size: '1' })),
      ),
    ).toEqual([]);
    expect(
      conformance.problemsOf(
        answer('GET', url, 200, events({ exchange: 'paradex', side: 'up', size: '1' })),
      ),
    ).not.toEqual([]);
  });

  it('leaves requests that name no operation alone', () => {
    expect(conformance.problemsOf(answer('GET', '/readyz', 200, { status: 'ok' }))).toEqual([]);
  });
});
