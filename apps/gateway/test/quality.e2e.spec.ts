import { GatewayHarness } from './gateway-harness';

jest.setTimeout(60_000);

/**
 * Execution quality (issue 60) through the API: the numbers against the log
 * entries written (as a worker would write them: the workers own the log),
 * each user seeing their own trades only, and the refusals.
 */
describe('GET /trades/{id}/quality and GET /quality', () => {
  const gateway = new GatewayHarness();
  type Trader = Awaited<ReturnType<GatewayHarness['trader']>>;
  let alice: Trader;
  let bob: Trader;

  // A create reserves rate budget and checks the venues: the budget service and the simulator too.
  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    alice = await gateway.trader(['hyperliquid', 'paradex']);
    bob = await gateway.trader(['hyperliquid', 'paradex']);
  });
  afterAll(() => gateway.stop());

  const get = (trader: Trader, path: string) =>
    gateway.request('GET', path, { headers: trader.headers });

  const makerFill = (fillId: string, atMs: number, exchange = 'hyperliquid', side = 'buy') => ({
    exchange,
    market: 'BTC',
    side,
    price: '65000',
    size: '0.004',
    order_id: `o-${fillId}`,
    client_order_id: `c-${fillId}`,
    fully_filled: false,
    timestamp_ms: atMs,
    fill_id: fillId,
    fee: '0.039',
    fee_asset: 'USDC',
    liquidity: 'maker',
  });
  const hedgeFilled = (exchange: string, side: string, price: string) => ({
    exchange,
    side,
    price,
    size: '0.004',
    order_id: 'h-1',
    timestamp_ms: 1,
    client_order_id: 'hc-1',
    fee: '0.05',
    fee_asset: 'USD',
    liquidity: 'taker',
  });
  const hedgeOutcome = (cause: string, slippageBps: string | null, filledSize = '0.004') => ({
    result: filledSize === '0' ? 'rejected' : 'filled',
    exchange: 'paradex',
    side: 'sell',
    requested_size: '0.004',
    filled_size: filledSize,
    avg_price: filledSize === '0' ? null : '65006',
    attempts: 1,
    slippage_bps: slippageBps,
    spread_achieved: null,
    guard_fill_class: null,
    cause,
  });
  const hedgeSent = (cause: string, arrivalMid: string | null) => ({
    exchange: 'paradex',
    side: 'sell',
    size: '0.004',
    price: '64990',
    client_order_id: `h-${cause}`,
    attempt: 1,
    cause,
    arrival_mid: arrivalMid,
  });
  const quoting = (untilMs: number, quotedMs: number, placed: number, canceled: number) => ({
    exchange: 'hyperliquid',
    side: 'buy',
    from_ms: untilMs - quotedMs,
    until_ms: untilMs,
    quoted_ms: quotedMs,
    placed,
    replaced: 0,
    canceled,
  });
  const markout = (fillId: string, horizon: number, mid: string, bps: string) => ({
    fill_id: fillId,
    horizon_s: horizon,
    mid,
    bps,
  });

  /** A trade of the trader's, created through the API a minute ago; answers its id and creation time. */
  async function createdTrade(trader: Trader, overrides: Record<string, unknown> = {}) {
    const created = await gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(trader.wallet, overrides),
    });
    expect(created.status).toBe(202);
    // Created a minute ago, so its fills (seconds after creation) are past by now.
    await gateway.query(
      `UPDATE trades SET created_at = created_at - interval '1 minute' WHERE id = $1`,
      [created.body.trade_id],
    );
    const trade = await get(trader, `/api/v1/trades/${created.body.trade_id}`);
    return { id: created.body.trade_id as string, createdMs: Date.parse(trade.body.created_at) };
  }

  /** Writes the entries as the trade's worker would, in order, and moves last_sequence on. */
  async function writeLog(tradeId: string, entries: Array<[string, object]>) {
    for (const [index, [eventType, data]] of entries.entries()) {
      await gateway.query(
        `INSERT INTO trade_events (trade_id, sequence, event_type, data, worker_id) VALUES ($1, $2, $3, $4, 'w-1')`,
        [tradeId, index + 1, eventType, JSON.stringify(data)],
      );
    }
    await gateway.query(`UPDATE trades SET last_sequence = $2 WHERE id = $1`, [
      tradeId,
      entries.length,
    ]);
  }

  let tradeId = '';
  let firstFillMs = 0;

  beforeAll(async () => {
    const trade = await createdTrade(alice);
    tradeId = trade.id;
    firstFillMs = trade.createdMs + 4250;
    await writeLog(tradeId, [
      ['chunk_started', { target_size: '0.008', size_type: 'base', spread_at_start: '2.5' }],
      ['maker_fill', makerFill('f-1', firstFillMs)],
      ['hedge_sent', hedgeSent('f-1', '65008.5')],
      ['quoting', quoting(firstFillMs, 4_000, 3, 2)],
      ['hedge_filled', hedgeFilled('paradex', 'sell', '65006')],
      ['hedge_outcome', hedgeOutcome('f-1', '0.769')],
      ['markout', markout('f-1', 1, '65003.25', '0.5')],
      ['markout', markout('f-1', 10, '64992.2', '-1.2')],
      // A recovery logging a fill the log holds: counted once.
      ['maker_fill', makerFill('f-1', firstFillMs)],
      ['maker_fill', makerFill('f-2', firstFillMs + 3000)],
      ['markout', markout('f-2', 1, '64983.75', '-2.5')],
      ['hedge_outcome', hedgeOutcome('f-2', null, '0')],
      ['quoting', quoting(firstFillMs + 10_000, 5_000, 1, 1)],
    ]);
    // Alice's trade that quoted and never filled: it counts against the venue's fill rate.
    const unfilled = await createdTrade(alice);
    await writeLog(unfilled.id, [['quoting', quoting(firstFillMs + 20_000, 27_000, 4, 4)]]);
    // Bob's fills in the same window, on the other venue: never in Alice's answers.
    const bobs = await createdTrade(bob, { maker_leg: 'short' });
    await writeLog(bobs.id, [
      ['maker_fill', makerFill('b-1', firstFillMs, 'paradex', 'sell')],
      ['markout', markout('b-1', 1, '64900', '15.384615')],
      ['quoting', { ...quoting(firstFillMs + 5_000, 9_000, 9, 9), exchange: 'paradex' }],
    ]);
  });

  describe('one trade', () => {
    it('answers each fill with its markouts and hedges, and the trade’s figures', async () => {
      const running = await get(alice, `/api/v1/trades/${tradeId}/quality`);
      expect(running.status).toBe(200);
      expect(running.body).toMatchObject({ ended_at: null, time_to_end_ms: null });

      await gateway.query(
        `UPDATE trades SET status = 'completed', completed_at = created_at + interval '70 seconds' WHERE id = $1`,
        [tradeId],
      );
      const quality = await get(alice, `/api/v1/trades/${tradeId}/quality`);
      expect(quality.status).toBe(200);
      expect(quality.body).toEqual({
        trade_id: tradeId,
        status: 'completed',
        market: 'BTC',
        maker_leg: 'long',
        spread_type: 'absolute',
        target_spread: '5',
        // Sold at 65006 (the hedge), bought at 65000 (both maker fills): 6 against a target of 5.
        realised_spread: '6',
        realised_vs_target: '1',
        // The market offered 2.5 at the start: waiting for the target captured 3.5 more.
        spread_at_start: '2.5',
        realised_vs_start: '3.5',
        created_at: new Date(firstFillMs - 4250).toISOString(),
        first_fill_at: new Date(firstFillMs).toISOString(),
        time_to_first_fill_ms: 4250,
        ended_at: new Date(firstFillMs - 4250 + 70_000).toISOString(),
        time_to_end_ms: 70_000,
        fills_count: 2,
        // Its two spells: 9 s quoted over its 70 s, 2 fills in them.
        quoting: {
          quoted_ms: 9_000,
          orders_placed: 4,
          orders_replaced: 0,
          cancels: 3,
          requotes: 3,
          fills_per_quote_hour: '800',
          requotes_per_fill: '1.5',
          cancels_per_fill: '1.5',
        },
        quoted_share: '0.1286',
        // (0.5 + -2.5) / 2; only f-1 was sampled at 10 s, no fill at 60 s.
        mean_markout_bps: { '1': '-1', '10': '-1.2', '60': null },
        fills: [
          {
            fill_id: 'f-1',
            exchange: 'hyperliquid',
            side: 'buy',
            price: '65000',
            size: '0.004',
            timestamp: new Date(firstFillMs).toISOString(),
            markout_bps: { '1': '0.5', '10': '-1.2', '60': null },
            markout_mid: { '1': '65003.25', '10': '64992.2', '60': null },
            hedges: [
              {
                result: 'filled',
                exchange: 'paradex',
                side: 'sell',
                requested_size: '0.004',
                filled_size: '0.004',
                avg_price: '65006',
                // The log's 0.769 (positive: worse than the decision), signed good-for-the-trader.
                slippage_bps: '-0.769',
                // Sold 2.5 under the mid the IOC arrived at.
                arrival_mid: '65008.5',
                arrival_slippage_bps: '-0.384565',
              },
            ],
          },
          {
            fill_id: 'f-2',
            exchange: 'hyperliquid',
            side: 'buy',
            price: '65000',
            size: '0.004',
            timestamp: new Date(firstFillMs + 3000).toISOString(),
            markout_bps: { '1': '-2.5', '10': null, '60': null },
            markout_mid: { '1': '64983.75', '10': null, '60': null },
            hedges: [
              {
                result: 'rejected',
                exchange: 'paradex',
                side: 'sell',
                requested_size: '0.004',
                filled_size: '0',
                avg_price: null,
                slippage_bps: null,
                arrival_mid: null,
                arrival_slippage_bps: null,
              },
            ],
          },
        ],
      });
    });

    it('is the same 404 for another user’s trade, an unknown one and an id that is no UUID', async () => {
      for (const response of [
        await get(bob, `/api/v1/trades/${tradeId}/quality`),
        await get(alice, '/api/v1/trades/00000000-0000-4000-8000-000000000000/quality'),
        await get(alice, '/api/v1/trades/not-a-uuid/quality'),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'trade not found', code: 'trade_not_found' });
      }
    });

    it('needs scope account:read', async () => {
      const reader = await gateway.trader(['hyperliquid'], 'trades:read');
      for (const path of [`/api/v1/trades/${tradeId}/quality`, '/api/v1/quality']) {
        const refused = await get(reader, path);
        expect(refused.status).toBe(403);
        expect(refused.body.code).toBe('insufficient_scope');
      }
    });
  });

  describe('over a window', () => {
    const window = () =>
      `from=${new Date(firstFillMs).toISOString()}&to=${new Date(firstFillMs + 60_000).toISOString()}`;

    it('groups the caller’s fills by venue with count, mean and nearest-rank percentiles', async () => {
      const report = await get(alice, `/api/v1/quality?${window()}&group_by=venue`);
      expect(report.status).toBe(200);
      expect(report.body).toEqual({
        from: new Date(firstFillMs).toISOString(),
        to: new Date(firstFillMs + 60_000).toISOString(),
        group_by: 'venue',
        groups: [
          {
            group: 'hyperliquid',
            fills: 2,
            markout_bps: {
              '1': { count: 2, mean: '-1', p5: '-2.5', p50: '-2.5', p95: '0.5' },
              '10': { count: 1, mean: '-1.2', p5: '-1.2', p50: '-1.2', p95: '-1.2' },
              '60': { count: 0, mean: null, p5: null, p50: null, p95: null },
            },
            hedge_slippage_bps: {
              count: 1,
              mean: '-0.769',
              p5: '-0.769',
              p50: '-0.769',
              p95: '-0.769',
            },
            hedge_arrival_slippage_bps: {
              count: 1,
              mean: '-0.384565',
              p5: '-0.384565',
              p50: '-0.384565',
              p95: '-0.384565',
            },
            time_to_first_fill_ms: { count: 1, mean: '4250', p5: '4250', p50: '4250', p95: '4250' },
            // Both of Alice's trades' spells in the window (Bob's never): 36 s quoted, 2 fills.
            quoting: {
              quoted_ms: 36_000,
              orders_placed: 8,
              orders_replaced: 0,
              cancels: 7,
              requotes: 7,
              fills_per_quote_hour: '200',
              requotes_per_fill: '3.5',
              cancels_per_fill: '3.5',
            },
          },
        ],
      });
      // Bob sees his own fill only.
      const bobs = await get(bob, `/api/v1/quality?${window()}`);
      expect(bobs.body.groups).toEqual([
        expect.objectContaining({
          group: 'paradex',
          fills: 1,
          markout_bps: expect.objectContaining({
            '1': {
              count: 1,
              mean: '15.384615',
              p5: '15.384615',
              p50: '15.384615',
              p95: '15.384615',
            },
          }),
        }),
      ]);
    });

    it('groups by market and side, counts fills in [from, to) and defaults to the last 7 days', async () => {
      const groupsOf = async (query: string) =>
        (await get(alice, `/api/v1/quality?${query}`)).body.groups.map(
          (group: { group: string; fills: number }) => [group.group, group.fills],
        );
      expect(await groupsOf(`${window()}&group_by=market`)).toEqual([['BTC', 2]]);
      expect(await groupsOf(`${window()}&group_by=side`)).toEqual([['buy', 2]]);
      const afterFirst = new Date(firstFillMs + 1).toISOString();
      expect(
        await groupsOf(`from=${afterFirst}&to=${new Date(firstFillMs + 3000).toISOString()}`),
      ).toEqual([]);
      expect(
        await groupsOf(`from=${afterFirst}&to=${new Date(firstFillMs + 3001).toISOString()}`),
      ).toEqual([['hyperliquid', 1]]);
      const byDefault = await get(alice, '/api/v1/quality');
      expect(byDefault.status).toBe(200);
      expect(Date.parse(byDefault.body.to) - Date.parse(byDefault.body.from)).toBe(7 * 86_400_000);
      expect(byDefault.body.group_by).toBe('venue');
      expect(byDefault.body.groups.map((group: { fills: number }) => group.fills)).toEqual([2]);
    });

    it('refuses a bad, reversed or too wide window and an unknown grouping with 400', async () => {
      const refusals: Array<[string, RegExp]> = [
        ['from=yesterday', /from must be an ISO 8601 date-time/],
        ['to=2026-13-01T00:00:00Z', /to must be an ISO 8601 date-time/],
        [
          'from=2026-01-05T00:00:00Z&to=2026-01-04T00:00:00Z',
          /from \(2026-01-05T00:00:00.000Z\) must be before to \(2026-01-04T00:00:00.000Z\)/,
        ],
        ['from=2026-01-05T00:00:00Z&to=2026-01-05T00:00:00Z', /must be before/],
        ['from=2025-09-01T00:00:00Z&to=2026-01-01T00:00:00Z', /wider than 90 days/],
        ['group_by=wallet', /group_by must be one of venue, market, side/],
      ];
      for (const [query, error] of refusals) {
        const refused = await get(alice, `/api/v1/quality?${query}`);
        expect({ query, status: refused.status, code: refused.body.code }).toEqual({
          query,
          status: 400,
          code: 'invalid_request',
        });
        expect(refused.body.error).toMatch(error);
      }
    });
  });
});
