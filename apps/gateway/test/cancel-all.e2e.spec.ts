import {
  canTransition,
  isExecutingTradeStatus,
  TRADE_STATUSES,
  type TradeStatus,
} from '@sts/domain';
import { GatewayHarness } from './gateway-harness';

/**
 * POST /api/v1/trades/cancel-all (issue 34): every live trade of the caller,
 * and only those, canceled as DELETE cancels it (the domain's transition
 * table decides, as in cancel-transitions.e2e.spec.ts), one answer per trade
 * in creation order; allowed during maintenance; another user's trades and
 * the caller's finished ones are left exactly as they were.
 */
describe('POST /api/v1/trades/cancel-all', () => {
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;
  let other: Awaited<ReturnType<GatewayHarness['trader']>>;

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    trader = await gateway.trader(['hyperliquid', 'paradex', 'lighter']);
    other = await gateway.trader(['hyperliquid', 'paradex', 'lighter']);
  });
  afterAll(() => gateway.stop());

  /** Maker venues in turn: five live trades of one wallet stay within every maker cap. */
  const MAKERS = ['paradex', 'hyperliquid', 'lighter'];
  let turn = 0;

  /** A trade of `owner` put in `status`, created `ageS` seconds ago (the order cancel-all follows). */
  async function tradeIn(owner: typeof trader, status: TradeStatus, ageS: number): Promise<string> {
    const maker = MAKERS[turn++ % MAKERS.length]!;
    const created = await gateway.request('POST', '/api/v1/trades', {
      headers: owner.headers,
      body: gateway.tradeBody(owner.wallet, {
        market: 'ETH',
        maker_leg: 'short',
        short_exchange: maker,
        long_exchange: maker === 'hyperliquid' ? 'paradex' : 'hyperliquid',
      }),
    });
    expect(created.status).toBe(202);
    const tradeId: string = created.body.trade_id;
    await gateway.query(
      `UPDATE trades SET status = $2, created_at = now() - make_interval(secs => $3) WHERE id = $1`,
      [tradeId, status, ageS],
    );
    return tradeId;
  }

  const rows = (ids: string[]) =>
    gateway.query<{ id: string; status: string; cancel_requested_at: Date | null }>(
      `SELECT id, status, cancel_requested_at FROM trades WHERE id = ANY($1) ORDER BY id`,
      [ids],
    );

  it('cancels each live trade of the caller as DELETE would, oldest first, during maintenance too', async () => {
    // Oldest first in status order: the answer must come back in this order. The finished
    // ones are made first (a new trade counts against its wallet's maker cap until it ends).
    const byAge = (status: TradeStatus) => 600 - TRADE_STATUSES.indexOf(status);
    const made = new Map<TradeStatus, string>();
    const endedFirst = [...TRADE_STATUSES].sort(
      (a, b) => Number(canTransition(a, 'canceled')) - Number(canTransition(b, 'canceled')),
    );
    for (const status of endedFirst) {
      made.set(status, await tradeIn(trader, status, byAge(status)));
    }
    const mine = new Map(TRADE_STATUSES.map((status) => [status, made.get(status)!]));
    const foreign = await tradeIn(other, 'pending', 700);
    const finished = [...mine].filter(([status]) => !canTransition(status, 'canceled'));
    const finishedBefore = await rows(finished.map(([, id]) => id));

    await gateway.ops('maintenance', 'set', '_system', 'on');
    let response;
    try {
      response = await gateway.request('POST', '/api/v1/trades/cancel-all', {
        headers: trader.headers,
      });
    } finally {
      await gateway.ops('maintenance', 'set', '_system', 'off');
    }

    expect(response.status).toBe(200);
    const live = [...mine].filter(([status]) => canTransition(status, 'canceled'));
    expect(response.body).toEqual({
      trades: live.map(([status, id]) =>
        isExecutingTradeStatus(status)
          ? { status: 'cancel_sent', trade_id: id, http_status: 202 }
          : { status: 'canceled', trade_id: id, http_status: 200 },
      ),
    });
    for (const row of await rows(live.map(([, id]) => id))) {
      expect(row.cancel_requested_at).not.toBeNull();
      const status = [...mine].find(([, id]) => id === row.id)![0];
      expect(row.status).toBe(isExecutingTradeStatus(status) ? status : 'canceled');
    }
    expect(await rows(finished.map(([, id]) => id))).toEqual(finishedBefore);
    expect((await rows([foreign]))[0]).toMatchObject({
      status: 'pending',
      cancel_requested_at: null,
    });
  });

  it('answers an empty list when nothing is live, and changes nothing', async () => {
    const fresh = await gateway.trader(['hyperliquid', 'paradex', 'lighter']);
    const done = await tradeIn(fresh, 'completed', 10);
    const response = await gateway.request('POST', '/api/v1/trades/cancel-all', {
      headers: fresh.headers,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ trades: [] });
    expect((await rows([done]))[0]).toMatchObject({
      status: 'completed',
      cancel_requested_at: null,
    });
  });

  it('needs trades:write: a read-only key is refused 403', async () => {
    const reader = await gateway.trader(['hyperliquid', 'paradex'], 'trades:read');
    const response = await gateway.request('POST', '/api/v1/trades/cancel-all', {
      headers: reader.headers,
    });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('insufficient_scope');
  });
});
