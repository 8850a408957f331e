import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  decodeEnvelope,
  encodeEnvelope,
  envelope,
  eventsStream,
  parseTradeControl,
  parseTradeLifecycle,
  TRADE_CONTROL,
  TRADE_CONTROL_REPLY,
  TRADE_LIFECYCLE,
  tradeControlSubject,
} from '@sts/contracts';
import { GatewayHarness } from './gateway-harness';
import { sleep } from '@sts/platform';

describe('reading, amending and canceling trades', () => {
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;
  let nats: NatsConnection;

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    trader = await gateway.trader(['hyperliquid', 'paradex', 'lighter']);
    nats = await connect({ servers: '127.0.0.1:4222' });
  });
  afterAll(async () => {
    await nats.close();
    await gateway.stop();
  });

  const as = (headers: Record<string, string>) => ({
    create: (body: Record<string, unknown>) =>
      gateway.request('POST', '/api/v1/trades', { headers, body }),
    get: (id: string) => gateway.request('GET', `/api/v1/trades/${id}`, { headers }),
    patch: (id: string, body: unknown) =>
      gateway.request('PATCH', `/api/v1/trades/${id}`, { headers, body }),
    cancel: (id: string) => gateway.request('DELETE', `/api/v1/trades/${id}`, { headers }),
  });
  const me = () => as(trader.headers);

  async function pendingTrade(overrides: Record<string, unknown> = {}): Promise<string> {
    const response = await me().create(
      gateway.tradeBody(trader.wallet, { market: 'ETH', maker_leg: 'short', ...overrides }),
    );
    expect(response.status).toBe(202);
    return response.body.trade_id;
  }

  /** Ends a trade as its worker would, so it stops counting against the maker cap. */
  const finish = (tradeId: string) =>
    gateway.query(`UPDATE trades SET status = 'completed', completed_at = now() WHERE id = $1`, [
      tradeId,
    ]);

  /** Stands in for the worker that owns a trade: answers its control subject over NATS. */
  function ownTrade(tradeId: string, accepted = true) {
    const received: Array<{ kind: string; amendment_version: number }> = [];
    const subscription = nats.subscribe(tradeControlSubject(gateway.env.NATS_PREFIX, tradeId), {
      callback: (_error, message) => {
        const control = decodeEnvelope(message.data, TRADE_CONTROL, parseTradeControl);
        received.push(control.payload);
        message.respond(
          encodeEnvelope(envelope(TRADE_CONTROL_REPLY, { accepted, worker_id: 'spec-worker' })),
        );
      },
    });
    return { received, release: () => subscription.unsubscribe() };
  }

  describe('GET', () => {
    it('404s an unknown trade and another user trade alike', async () => {
      const tradeId = await pendingTrade();
      const stranger = await gateway.trader(['hyperliquid', 'paradex']);
      for (const response of [
        await as(stranger.headers).get(tradeId),
        await me().get('00000000-0000-4000-8000-000000000000'),
        await me().get('not-a-uuid'),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'trade not found', code: 'trade_not_found' });
      }
      const events = await gateway.request('GET', `/api/v1/trades/${tradeId}/events`, {
        headers: stranger.headers,
      });
      expect(events.status).toBe(404);
      await me().cancel(tradeId);
    });

    it('lists the 50 most recent trades of the caller only, newest first', async () => {
      const lister = await gateway.trader(['hyperliquid', 'paradex']);
      const ids: string[] = [];
      for (let index = 0; index < 53; index += 1) {
        const created = await as(lister.headers).create(gateway.tradeBody(lister.wallet));
        expect(created.status).toBe(202);
        ids.push(created.body.trade_id);
        await as(lister.headers).cancel(created.body.trade_id);
      }
      const list = await gateway.request('GET', '/api/v1/trades', { headers: lister.headers });
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(50);
      expect(list.body.map((trade: { trade_id: string }) => trade.trade_id)).toEqual(
        ids.slice(3).reverse(),
      );
      expect(list.body.every((trade: { user_id: string }) => trade.user_id === lister.userId)).toBe(
        true,
      );
      expect(list.body[0]).toMatchObject({ status: 'canceled', completed_at: expect.any(String) });
    });

    it('returns the execution log ordered by sequence, with after_sequence for polling', async () => {
      const tradeId = await pendingTrade();
      const empty = await gateway.request('GET', `/api/v1/trades/${tradeId}/events`, {
        headers: trader.headers,
      });
      expect(empty.body).toEqual({ trade_id: tradeId, events: [], has_more: false });
      // The workers write the log; here rows are written as a worker would (decisions section 6).
      const makerFill = (sequence: number) => ({
        exchange: 'hyperliquid',
        market: 'BTC',
        side: 'buy',
        price: '60000',
        size: '0.001',
        order_id: `o-${sequence}`,
        client_order_id: `c-${sequence}`,
        fully_filled: false,
        timestamp_ms: 1_700_000_000_000 + sequence,
      });
      for (const sequence of [2, 1, 3]) {
        await gateway.query(
          `INSERT INTO trade_events (trade_id, sequence, event_type, data, worker_id) VALUES ($1, $2, $3, $4, 'w-1')`,
          [
            tradeId,
            sequence,
            sequence === 1 ? 'chunk_started' : 'maker_fill',
            JSON.stringify(
              sequence === 1 ? { target_size: '0.01', size_type: 'base' } : makerFill(sequence),
            ),
          ],
        );
      }
      const all = await gateway.request('GET', `/api/v1/trades/${tradeId}/events`, {
        headers: trader.headers,
      });
      expect(all.body.events.map((event: { sequence: number }) => event.sequence)).toEqual([
        1, 2, 3,
      ]);
      expect(all.body.events[0]).toEqual({
        sequence: 1,
        event_type: 'chunk_started',
        data: { target_size: '0.01', size_type: 'base' },
        worker_id: 'w-1',
        created_at: expect.any(String),
      });
      const after = await gateway.request(
        'GET',
        `/api/v1/trades/${tradeId}/events?after_sequence=2`,
        { headers: trader.headers },
      );
      expect(after.body.events.map((event: { sequence: number }) => event.sequence)).toEqual([3]);
      const bad = await gateway.request(
        'GET',
        `/api/v1/trades/${tradeId}/events?after_sequence=-1`,
        { headers: trader.headers },
      );
      expect(bad.status).toBe(400);
      await me().cancel(tradeId);
    });
  });

  describe('PATCH', () => {
    it('stores an amendment of a pending trade and answers 202 amendment_persisted', async () => {
      const tradeId = await pendingTrade();
      const response = await me().patch(tradeId, { target_size: '0.05', max_slippage: '0.002' });
      expect(response.status).toBe(202);
      expect(response.body).toEqual({
        status: 'amendment_persisted',
        trade_id: tradeId,
        warning: expect.any(String),
      });
      expect((await me().get(tradeId)).body).toMatchObject({
        target_size: '0.05',
        max_slippage: '0.002',
        status: 'pending',
      });
      await me().cancel(tradeId);
    });

    it('answers 200 amendment_sent when the owning worker acknowledges', async () => {
      const tradeId = await pendingTrade();
      await gateway.query(`UPDATE trades SET status = 'active' WHERE id = $1`, [tradeId]);
      const owner = ownTrade(tradeId);
      try {
        const response = await me().patch(tradeId, { target_spread: '3', spread_type: 'bps' });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ status: 'amendment_sent', trade_id: tradeId });
        expect(owner.received).toEqual([
          { kind: 'amend', trade_id: tradeId, amendment_version: 1 },
        ]);
        expect((await me().get(tradeId)).body).toMatchObject({
          target_spread: '3',
          spread_type: 'bps',
          status: 'active',
        });
      } finally {
        owner.release();
      }
      const unowned = await me().patch(tradeId, { target_size: '0.02' });
      expect(unowned.status).toBe(202);
      await finish(tradeId);
    });

    it.each([
      ['no field', {}],
      ['spread_type without target_spread', { spread_type: 'bps' }],
      ['a bad decimal', { target_size: '1e2' }],
      ['an unknown field', { market: 'SOL' }],
    ])('rejects %s with 400', async (_case, body) => {
      const tradeId = await pendingTrade();
      const response = await me().patch(tradeId, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_request');
      await me().cancel(tradeId);
    });

    it('rejects target_size below filled_size with 400 and accepts it equal', async () => {
      const tradeId = await pendingTrade();
      await gateway.query(
        `UPDATE trades SET status = 'active', filled_size = '0.004' WHERE id = $1`,
        [tradeId],
      );
      const below = await me().patch(tradeId, { target_size: '0.003' });
      expect(below.status).toBe(400);
      expect(below.body.error).toMatch(/below filled_size/);
      const equal = await me().patch(tradeId, { target_size: '0.004' });
      expect(equal.status).toBe(202);
      expect((await me().get(tradeId)).body).toMatchObject({
        target_size: '0.004',
        status: 'active',
      });
      await finish(tradeId);
    });

    it('404s unknown and foreign trades, 409s a finished trade', async () => {
      const tradeId = await pendingTrade();
      const stranger = await gateway.trader(['hyperliquid', 'paradex']);
      expect((await as(stranger.headers).patch(tradeId, { target_size: '1' })).status).toBe(404);
      expect(
        (await me().patch('00000000-0000-4000-8000-000000000000', { target_size: '1' })).status,
      ).toBe(404);
      await me().cancel(tradeId);
      const finished = await me().patch(tradeId, { target_size: '1' });
      expect(finished.status).toBe(409);
      expect(finished.body.code).toBe('trade_not_amendable');
    });

    it('is blocked with 503 during maintenance of the system or one of its exchanges', async () => {
      const tradeId = await pendingTrade();
      for (const scope of ['_system', 'paradex']) {
        await gateway.ops('maintenance', 'set', scope, 'on', '--reason', 'upgrade');
        try {
          const response = await me().patch(tradeId, { target_size: '1' });
          expect(response.status).toBe(503);
          expect(response.body.code).toBe(
            scope === '_system' ? 'system_maintenance' : 'exchange_maintenance',
          );
        } finally {
          await gateway.ops('maintenance', 'set', scope, 'off');
        }
      }
      await me().cancel(tradeId);
    });
  });

  describe('DELETE', () => {
    it('cancels a pending trade directly (200), publishes trade.canceled and frees its budget', async () => {
      const lifecycle: unknown[] = [];
      const jsm = await jetstreamManager(nats);
      const tradeId = await pendingTrade();
      const response = await me().cancel(tradeId);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'canceled', trade_id: tradeId });
      expect((await me().get(tradeId)).body).toMatchObject({
        status: 'canceled',
        completed_at: expect.any(String),
        // Written on every trade when it ends, this one's guard having watched nothing.
        fast_move_guard_stats: {
          mode: 'off',
          triggers: 0,
          holds: 0,
          hold_ms_total: 0,
          orders_canceled: 0,
          fills_after_trigger: 0,
          adverse_fills: 0,
          max_move_bps: 0,
        },
      });
      const stream = eventsStream(gateway.env.NATS_PREFIX).name;
      for (let attempt = 0; attempt < 50 && lifecycle.length === 0; attempt += 1) {
        // Null while the event is not in the stream yet.
        const message = await jsm.streams.getMessage(stream, {
          last_by_subj: `${gateway.env.NATS_PREFIX}.events.trades.${tradeId}`,
        });
        if (message) {
          lifecycle.push(
            decodeEnvelope(message.data, TRADE_LIFECYCLE, parseTradeLifecycle).payload,
          );
        } else {
          await sleep(50);
        }
      }
      expect(lifecycle).toEqual([
        {
          event: 'trade.canceled',
          trade_id: tradeId,
          user_id: trader.userId,
          status: 'canceled',
          timestamp: expect.any(String),
          data: expect.any(Object),
        },
      ]);
      const holders = await gateway.query(
        `SELECT count(*)::int AS n FROM trades WHERE id = $1 AND status = 'canceled'`,
        [tradeId],
      );
      expect(holders[0].n).toBe(1);
    });

    it('asks the worker of an executing trade (202 cancel_sent), storing the request first', async () => {
      const tradeId = await pendingTrade();
      await gateway.query(`UPDATE trades SET status = 'active' WHERE id = $1`, [tradeId]);
      const owner = ownTrade(tradeId);
      try {
        const response = await me().cancel(tradeId);
        expect(response.status).toBe(202);
        expect(response.body).toEqual({ status: 'cancel_sent', trade_id: tradeId });
        const [row] = await gateway.query(
          `SELECT status, cancel_requested_at FROM trades WHERE id = $1`,
          [tradeId],
        );
        expect(row.status).toBe('active');
        expect(row.cancel_requested_at).not.toBeNull();
        expect(owner.received.map((control) => control.kind)).toEqual(['cancel']);
      } finally {
        owner.release();
        await finish(tradeId);
      }
    });

    it('is a 202 no-op on a finished trade, allowed during maintenance, and 404s unknown or foreign trades', async () => {
      const tradeId = await pendingTrade();
      await finish(tradeId);
      await gateway.ops('maintenance', 'set', '_system', 'on');
      try {
        const response = await me().cancel(tradeId);
        expect(response.status).toBe(202);
        expect(response.body).toEqual({ status: 'cancel_sent', trade_id: tradeId });
        expect((await me().get(tradeId)).body.status).toBe('completed');
        const pending = await gateway.query(
          `SELECT id FROM trades WHERE user_id = $1 AND status = 'pending' LIMIT 1`,
          [trader.userId],
        );
        if (pending[0]) {
          expect((await me().cancel(pending[0].id)).status).toBe(200);
        }
      } finally {
        await gateway.ops('maintenance', 'set', '_system', 'off');
      }
      const stranger = await gateway.trader(['hyperliquid', 'paradex']);
      expect((await as(stranger.headers).cancel(tradeId)).status).toBe(404);
      expect((await me().cancel('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    });
  });
});

describe('rate budget (validation 7)', () => {
  const gateway = new GatewayHarness();

  beforeAll(() =>
    gateway.start({
      venues: true,
      budget: true,
      env: { VENUE_HYPERLIQUID_RATE_LIMIT_PER_S: '4', VENUE_HYPERLIQUID_MIN_TRADE_BUDGET: '2' },
    }),
  );
  afterAll(() => gateway.stop());

  it('answers 429 rate_budget_exhausted when a share would fall under the minimum, and writes nothing', async () => {
    const trader = await gateway.trader(['hyperliquid', 'paradex']);
    const create = (overrides: Record<string, unknown>) =>
      gateway.request('POST', '/api/v1/trades', {
        headers: trader.headers,
        body: gateway.tradeBody(trader.wallet, overrides),
      });
    const first = await create({ maker_leg: 'long' });
    const second = await create({ maker_leg: 'long', market: 'ETH' });
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(first.body.rate_budget).toBe(4);
    expect(second.body.rate_budget).toBe(2);

    const before = await gateway.query(`SELECT count(*)::int AS n FROM trades`);
    // Maker on paradex, hedging on hyperliquid: hyperliquid shares its limit, a third holder would get 1 < 2.
    const refused = await create({ maker_leg: 'short', market: 'SOL' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_budget_exhausted');
    expect(await gateway.query(`SELECT count(*)::int AS n FROM trades`)).toEqual(before);

    const canceled = await gateway.request('DELETE', `/api/v1/trades/${first.body.trade_id}`, {
      headers: trader.headers,
    });
    expect(canceled.status).toBe(200);
    const third = await create({ maker_leg: 'short', market: 'SOL' });
    expect(third.status).toBe(202);
    expect(third.body.hedge_rate_budget).toBe(2);
  });
});

describe('rate budget service unreachable', () => {
  const gateway = new GatewayHarness();

  beforeAll(() => gateway.start({ venues: true }));
  afterAll(() => gateway.stop());

  it('answers 503 service_unavailable naming the budget service, and writes nothing', async () => {
    const trader = await gateway.trader(['hyperliquid', 'paradex']);
    const response = await gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(trader.wallet),
    });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      error: expect.any(String),
      code: 'service_unavailable',
      reason: 'budget_service',
    });
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await gateway.query(`SELECT count(*)::int AS n FROM trades`)).toEqual([{ n: 0 }]);
    expect(await gateway.query(`SELECT count(*)::int AS n FROM outbox`)).toEqual([{ n: 0 }]);
  });
});
