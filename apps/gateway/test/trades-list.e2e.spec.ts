import { TRADE_STATUSES, type TradeStatus } from '@sts/domain';
import { GatewayHarness } from './gateway-harness';

/**
 * GET /api/v1/trades with `status`, `limit` and `before` (decisions section
 * 8): a bot with more than 50 trades finds its live ones and pages through
 * the rest, newest first, each trade once; without them the interface's 50
 * newest as before. Bad values are 400 and a foreign cursor 404.
 */
describe('GET /api/v1/trades: filters and pages', () => {
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;
  /** Newest first, as the API orders them. */
  const made: Array<{ id: string; status: TradeStatus }> = [];

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    trader = await gateway.trader(['hyperliquid', 'paradex']);
    // 60 trades, a status each in turn; one created_at for all: the id breaks the tie.
    for (let i = 0; i < 60; i += 1) {
      const created = await gateway.request('POST', '/api/v1/trades', {
        headers: trader.headers,
        body: gateway.tradeBody(trader.wallet, { market: 'ETH', maker_leg: 'short' }),
      });
      expect(created.status).toBe(202);
      // Canceled at once (its maker cap and rate budget free for the next); statuses set after.
      const canceled = await gateway.request('DELETE', `/api/v1/trades/${created.body.trade_id}`, {
        headers: trader.headers,
      });
      expect(canceled.status).toBe(200);
      made.push({ id: created.body.trade_id, status: TRADE_STATUSES[i % TRADE_STATUSES.length]! });
    }
    for (const { id, status } of made) {
      await gateway.query(`UPDATE trades SET status = $2 WHERE id = $1`, [id, status]);
    }
    await gateway.query(
      `UPDATE trades SET created_at = now() - interval '1 hour' WHERE user_id = $1`,
      [trader.userId],
    );
    made.sort((a, b) => (a.id < b.id ? 1 : -1));
  }, 120_000);
  afterAll(() => gateway.stop());

  const list = (query = '') =>
    gateway.request('GET', `/api/v1/trades${query}`, { headers: trader.headers });
  const ids = (body: Array<{ trade_id: string }>) => body.map((trade) => trade.trade_id);

  it('answers the 50 newest without a query, as before', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(made.slice(0, 50).map((trade) => trade.id));
  });

  it('pages through every trade with limit and before, each once, newest first', async () => {
    const seen: string[] = [];
    let before = '';
    for (;;) {
      const response = await list(`?limit=7${before}`);
      expect(response.status).toBe(200);
      if (response.body.length === 0) {
        break;
      }
      expect(response.body.length).toBeLessThanOrEqual(7);
      seen.push(...ids(response.body));
      before = `&before=${seen.at(-1)}`;
    }
    expect(seen).toEqual(made.map((trade) => trade.id));
  });

  it('filters by status, one or several', async () => {
    const live = await list('?status=pending,validating,active,paused,recovering&limit=200');
    const wanted = new Set(['pending', 'validating', 'active', 'paused', 'recovering']);
    expect(ids(live.body)).toEqual(
      made.filter((trade) => wanted.has(trade.status)).map((trade) => trade.id),
    );
    const failed = await list('?status=failed');
    expect(failed.body.every((trade: { status: string }) => trade.status === 'failed')).toBe(true);
    expect(failed.body.length).toBe(made.filter((trade) => trade.status === 'failed').length);
  });

  it('refuses bad values with 400, and another user’s trade as a cursor with 404', async () => {
    for (const query of [
      '?status=done',
      '?status=active,',
      '?limit=0',
      '?limit=201',
      '?before=x',
    ]) {
      const response = await list(query);
      expect([query, response.status, response.body.code]).toEqual([query, 400, 'invalid_request']);
    }
    const other = await gateway.trader(['hyperliquid', 'paradex']);
    const theirs = await gateway.request('POST', '/api/v1/trades', {
      headers: other.headers,
      body: gateway.tradeBody(other.wallet, { market: 'ETH', maker_leg: 'short' }),
    });
    const foreign = await list(`?before=${theirs.body.trade_id}`);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'trade_not_found']);
  });

  /** A trade's answer without its live request shares (rate_budget, hedge_rate_budget). */
  const withoutShares = (answer: Record<string, unknown>): Record<string, unknown> => {
    const { rate_budget: _shared, hedge_rate_budget: _hedgeShared, ...rest } = answer;
    return rest;
  };

  /**
   * The reads take a trade's row as one json object from Postgres: each of its
   * types must come out as a select of the columns gives it (decimals to their
   * last digit, times to the millisecond, json as objects), in all three reads.
   */
  it('shows a trade’s stored values exactly in the trade, the list and a page', async () => {
    const { id } = made[0]!;
    await gateway.query(
      `UPDATE trades SET target_size = '0.123456789012345678901234', max_slippage = '0.00100',
         worst_spread = '-12345678901234567.5', fast_move_guard = 'shadow',
         fast_move_guard_bps = '12.25', fast_move_window_ms = 1500, fast_move_settle_ms = 250,
         fast_move_guard_stats = '{"pauses": 3, "last": {"bps": "14.5"}}',
         completed_at = '2026-11-29 00:59:10.123999+05:30'
       WHERE id = $1`,
      [id],
    );
    const [stored] = await gateway.query<{ created_at: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
       FROM trades WHERE id = $1`,
      [id],
    );
    const shown = {
      trade_id: id,
      target_size: '0.123456789012345678901234',
      max_slippage: '0.001',
      worst_spread: '-12345678901234567.5',
      fast_move_guard: 'shadow',
      fast_move_guard_bps: 12.25,
      fast_move_window_ms: 1500,
      fast_move_settle_ms: 250,
      fast_move_guard_stats: { pauses: 3, last: { bps: '14.5' } },
      completed_at: '2026-11-28T19:29:10.123Z',
      created_at: stored!.created_at,
    };
    const one = await gateway.request('GET', `/api/v1/trades/${id}`, { headers: trader.headers });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject(shown);
    // The request shares are live: the budget service moves them as other trades come and go.
    const newest = await list();
    expect(withoutShares(newest.body[0])).toEqual(withoutShares(one.body));
    const page = await list('?limit=1');
    expect(page.body.map(withoutShares)).toEqual([withoutShares(one.body)]);
    for (const answer of [one.body, newest.body[0], page.body[0]]) {
      expect(Number.isInteger(answer.rate_budget)).toBe(true);
    }
  });
});
