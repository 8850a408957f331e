import { GatewayHarness } from './gateway-harness';

describe('POST /api/v1/trades', () => {
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    trader = await gateway.trader(['hyperliquid', 'paradex', 'lighter', 'aster']);
  });
  afterAll(() => gateway.stop());

  const create = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    gateway.request('POST', '/api/v1/trades', { headers: { ...trader.headers, ...headers }, body });
  const cancel = (tradeId: string) =>
    gateway.request('DELETE', `/api/v1/trades/${tradeId}`, { headers: trader.headers });
  const tradeCount = async () =>
    (await gateway.query(`SELECT count(*)::int AS n FROM trades`))[0].n;

  it('accepts a valid trade with 202, trade_id, pending and its rate budget', async () => {
    const response = await create(gateway.tradeBody(trader.wallet));
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      trade_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'pending',
      rate_budget: expect.any(Number),
    });
    expect(response.body.rate_budget).toBeGreaterThanOrEqual(2);

    const trade = await gateway.request('GET', `/api/v1/trades/${response.body.trade_id}`, {
      headers: trader.headers,
    });
    expect(trade.body).toMatchObject({
      trade_id: response.body.trade_id,
      user_id: trader.userId,
      market: 'BTC',
      long_exchange: 'hyperliquid',
      short_exchange: 'paradex',
      target_spread: '5',
      spread_condition: 'gte',
      target_size: '0.01',
      filled_size: '0',
      execution_type: 'maker_taker',
      maker_leg: 'long',
      max_slippage: '0.001',
      status: 'pending',
      size_type: 'base',
      spread_type: 'absolute',
      failure_reason: '',
      completed_at: null,
      fast_move_guard_stats: null,
    });
    expect(trade.body).not.toHaveProperty('hedge_rate_budget');
    await cancel(response.body.trade_id);
  });

  it("carries the caller's X-Request-Id, or a fresh id, as its start command's correlation id", async () => {
    const correlationOf = async (tradeId: string): Promise<string> =>
      (
        await gateway.query(
          `SELECT payload->>'correlation_id' AS id FROM outbox WHERE payload->'payload'->>'trade_id' = $1`,
          [tradeId],
        )
      )[0]?.id;
    // One at a time, each cancelled before the next: the maker cap holds two live trades.
    const createAndCancel = async (headers: Record<string, string> = {}): Promise<string> => {
      const response = await create(gateway.tradeBody(trader.wallet), headers);
      expect(response.status).toBe(202);
      await cancel(response.body.trade_id);
      return correlationOf(response.body.trade_id);
    };
    expect(await createAndCancel({ 'x-request-id': 'bot-7-req-42' })).toBe('bot-7-req-42');
    const fresh = [await createAndCancel(), await createAndCancel()];
    // Each its own UUID: ids that repeat across replicas or restarts would join unrelated requests.
    fresh.forEach((id) => expect(id).toMatch(/^[0-9a-f-]{36}$/));
    expect(fresh[0]).not.toBe(fresh[1]);
    expect(gateway.logs()).toContain('"correlation_id":"bot-7-req-42"');
  });

  it('holds hedge_rate_budget only when the hedge venue shares its account limit', async () => {
    const sharedHedge = await create(
      gateway.tradeBody(trader.wallet, {
        maker_leg: 'short',
        long_exchange: 'hyperliquid',
        short_exchange: 'paradex',
      }),
    );
    expect(sharedHedge.status).toBe(202);
    expect(sharedHedge.body.hedge_rate_budget).toEqual(expect.any(Number));
    const unsharedHedge = await create(gateway.tradeBody(trader.wallet, { maker_leg: 'long' }));
    expect(unsharedHedge.status).toBe(202);
    expect(unsharedHedge.body).not.toHaveProperty('hedge_rate_budget');
    await cancel(sharedHedge.body.trade_id);
    await cancel(unsharedHedge.body.trade_id);
  });

  it("shows a live trade's budget re-divided as others join and leave, a finished one's as it ended", async () => {
    const other = await gateway.trader(['hyperliquid', 'paradex']);
    const budgetOf = async (tradeId: string) =>
      (await gateway.request('GET', `/api/v1/trades/${tradeId}`, { headers: other.headers })).body
        .rate_budget as number;
    const listed = async () =>
      new Map(
        (
          (await gateway.request('GET', '/api/v1/trades', { headers: other.headers }))
            .body as Array<{
            trade_id: string;
            rate_budget: number;
          }>
        ).map((trade) => [trade.trade_id, trade.rate_budget]),
      );
    const until = async (check: () => Promise<boolean>): Promise<void> => {
      const deadline = Date.now() + 5_000;
      while (!(await check())) {
        if (Date.now() > deadline) {
          throw new Error('the budgets did not converge within 5 s');
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const open = (body: Record<string, unknown>) =>
      gateway.request('POST', '/api/v1/trades', { headers: other.headers, body });

    const first = await open(gateway.tradeBody(other.wallet));
    const second = await open(gateway.tradeBody(other.wallet));
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.body.rate_budget).toBeLessThan(first.body.rate_budget);
    await until(async () => (await budgetOf(first.body.trade_id)) === second.body.rate_budget);
    expect(await listed()).toEqual(
      new Map([
        [first.body.trade_id, second.body.rate_budget],
        [second.body.trade_id, second.body.rate_budget],
      ]),
    );

    // The second ends: the first grows back, the second keeps the budget it ended with.
    await gateway.request('DELETE', `/api/v1/trades/${second.body.trade_id}`, {
      headers: other.headers,
    });
    await until(async () => (await budgetOf(first.body.trade_id)) === first.body.rate_budget);
    expect(await budgetOf(second.body.trade_id)).toBe(second.body.rate_budget);
    await gateway.request('DELETE', `/api/v1/trades/${first.body.trade_id}`, {
      headers: other.headers,
    });
  });

  describe('idempotency', () => {
    it('requires a key (400 idempotency_key_required) and changes nothing', async () => {
      const before = await tradeCount();
      const { idempotency_key: _omitted, ...body } = gateway.tradeBody(trader.wallet);
      const response = await create(body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('idempotency_key_required');
      expect(await tradeCount()).toBe(before);
    });

    it.each([['has space'], ['x'.repeat(129)], ['semi;colon'], ['']])(
      'rejects key %j (400 invalid_idempotency_key)',
      async (key) => {
        const response = await create(gateway.tradeBody(trader.wallet), {
          'x-idempotency-key': key,
        });
        if (key === '') {
          expect(response.body.code).toBe('idempotency_key_required');
        } else {
          expect(response.status).toBe(400);
          expect(response.body.code).toBe('invalid_idempotency_key');
        }
      },
    );

    it('takes the header over the body field', async () => {
      const key = `hdr-${Date.now()}`;
      const first = await create(
        gateway.tradeBody(trader.wallet, { idempotency_key: 'not valid!' }),
        { 'x-idempotency-key': key },
      );
      expect(first.status).toBe(202);
      const replay = await create(gateway.tradeBody(trader.wallet, { idempotency_key: key }));
      expect(replay.status).toBe(200);
      expect(replay.body.trade_id).toBe(first.body.trade_id);
      await cancel(first.body.trade_id);
    });

    it('replays with 200, the original trade, its current status and idempotent: true', async () => {
      const body = gateway.tradeBody(trader.wallet);
      const first = await create(body);
      await cancel(first.body.trade_id);
      const before = await tradeCount();
      const replay = await create(body);
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual({
        trade_id: first.body.trade_id,
        status: 'canceled',
        rate_budget: first.body.rate_budget,
        idempotent: true,
      });
      expect(await tradeCount()).toBe(before);
    });

    it('keys are per user: another user may use the same key', async () => {
      const other = await gateway.trader(['hyperliquid', 'paradex']);
      const key = `shared-${Date.now()}`;
      const mine = await create(gateway.tradeBody(trader.wallet, { idempotency_key: key }));
      const theirs = await gateway.request('POST', '/api/v1/trades', {
        headers: other.headers,
        body: gateway.tradeBody(other.wallet, { idempotency_key: key }),
      });
      expect([mine.status, theirs.status]).toEqual([202, 202]);
      expect(theirs.body.trade_id).not.toBe(mine.body.trade_id);
      await cancel(mine.body.trade_id);
      await gateway.request('DELETE', `/api/v1/trades/${theirs.body.trade_id}`, {
        headers: other.headers,
      });
    });

    it('50 concurrent creates with one key create exactly one trade', async () => {
      const body = gateway.tradeBody(trader.wallet);
      const before = await tradeCount();
      const responses = await Promise.all(Array.from({ length: 50 }, () => create(body)));
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses.filter((status) => status === 202)).toHaveLength(1);
      expect(statuses.filter((status) => status === 200)).toHaveLength(49);
      expect(new Set(responses.map((response) => response.body.trade_id)).size).toBe(1);
      expect(await tradeCount()).toBe(before + 1);
      await cancel(responses[0].body.trade_id);
    });
  });

  describe('body validation (400 invalid_request, nothing written)', () => {
    it.each([
      ['a float target_size', { target_size: 0.5 }],
      ['an exponent', { target_size: '1e3' }],
      ['a negative size', { target_size: '-1' }],
      ['a zero size', { target_size: '0' }],
      ['a negative slippage', { max_slippage: '-0.1' }],
      ['a bad spread', { target_spread: 'wide' }],
      ['an unknown condition', { spread_condition: 'ne' }],
      ['an unknown execution type', { execution_type: 'taker_taker' }],
      ['an unknown maker leg', { maker_leg: 'both' }],
      ['an unknown size type', { size_type: 'lots' }],
      ['an unknown spread type', { spread_type: 'pips' }],
      ['an unknown quote mode', { quote_mode: 'passive' }],
      ['an unknown field', { leverage: '10' }],
      ['a user id in the body', { user_id: 'someone' }],
      ['a missing market', { market: undefined }],
      ['fast_move_guard_bps 0', { fast_move_guard_bps: 0 }],
      ['fast_move_guard_bps over 1000', { fast_move_guard_bps: 1000.5 }],
      ['fast_move_window_ms under 50', { fast_move_window_ms: 49 }],
      ['fast_move_window_ms not an integer', { fast_move_window_ms: 100.5 }],
      ['fast_move_settle_ms over 10000', { fast_move_settle_ms: 10001 }],
      ['an unknown guard mode', { fast_move_guard: 'loud' }],
      ['worst_spread without the aggressive mode', { worst_spread: '6' }],
      ['worst_spread that violates the condition', { quote_mode: 'aggressive', worst_spread: '4' }],
      ['an unknown exchange', { short_exchange: 'binance' }],
    ])('rejects %s', async (_case, overrides) => {
      const before = await tradeCount();
      const response = await create(gateway.tradeBody(trader.wallet, overrides));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.any(String), code: 'invalid_request' });
      expect(await tradeCount()).toBe(before);
    });

    it('accepts the guard fields at their limits with an aggressive quote', async () => {
      const response = await create(
        gateway.tradeBody(trader.wallet, {
          quote_mode: 'aggressive',
          worst_spread: '6',
          fast_move_guard: 'on',
          fast_move_guard_bps: 1000,
          fast_move_window_ms: 50,
          fast_move_settle_ms: 10000,
        }),
      );
      expect(response.status).toBe(202);
      const trade = await gateway.request('GET', `/api/v1/trades/${response.body.trade_id}`, {
        headers: trader.headers,
      });
      expect(trade.body).toMatchObject({
        quote_mode: 'aggressive',
        worst_spread: '6',
        fast_move_guard: 'on',
        fast_move_guard_bps: 1000,
        fast_move_window_ms: 50,
        fast_move_settle_ms: 10000,
      });
      await cancel(response.body.trade_id);
    });
  });

  describe('validation rules, in the order of decisions section 4', () => {
    it('4: same exchange on both legs is 400 same_exchange', async () => {
      const response = await create(
        gateway.tradeBody(trader.wallet, { short_exchange: 'hyperliquid' }),
      );
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('same_exchange');
    });

    it('3 before 2: the kill switch answers 503 kill_switch even during maintenance', async () => {
      await gateway.ops('kill-switch', 'on', '--reason', 'incident 42');
      await gateway.ops('maintenance', 'set', '_system', 'on', '--reason', 'upgrade');
      try {
        const response = await create(gateway.tradeBody(trader.wallet));
        expect(response.status).toBe(503);
        expect(response.body).toEqual({
          error: expect.stringMatching(/kill switch/),
          code: 'kill_switch',
          reason: 'incident 42',
        });
      } finally {
        await gateway.ops('kill-switch', 'off');
        await gateway.ops('maintenance', 'set', '_system', 'off');
      }
    });

    it('2: system maintenance is 503 system_maintenance with the operator reason', async () => {
      await gateway.ops('maintenance', 'set', '_system', 'on', '--reason', 'database upgrade');
      try {
        const response = await create(gateway.tradeBody(trader.wallet));
        expect(response.status).toBe(503);
        expect(response.body).toEqual({
          error: expect.stringMatching(/system is in maintenance mode/),
          code: 'system_maintenance',
          reason: 'database upgrade',
        });
      } finally {
        await gateway.ops('maintenance', 'set', '_system', 'off');
      }
    });

    it('2: an exchange in maintenance is 503 exchange_maintenance naming it', async () => {
      await gateway.ops('maintenance', 'set', 'paradex', 'on', '--reason', 'venue upgrade');
      try {
        const response = await create(gateway.tradeBody(trader.wallet));
        expect(response.status).toBe(503);
        expect(response.body.code).toBe('exchange_maintenance');
        expect(response.body.error).toMatch(/paradex is in maintenance mode/);
      } finally {
        await gateway.ops('maintenance', 'set', 'paradex', 'off');
      }
    });

    it.each([
      ['unknown everywhere', { market: 'NOPE' }, /not listed on hyperliquid and paradex/],
      ['missing on one venue', { market: 'HYPE' }, /not listed on paradex/],
      ['ambiguous on one venue', { market: 'HYPE', short_exchange: 'aster' }, /ambiguous/],
    ])('5: a market %s is 400 market_not_tradeable', async (_case, overrides, message) => {
      const response = await create(gateway.tradeBody(trader.wallet, overrides));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('market_not_tradeable');
      expect(response.body.error).toMatch(message);
    });

    it('1: no credentials on one venue, or a wallet of another user, is 403 credentials_not_linked', async () => {
      const missing = await create(
        gateway.tradeBody(trader.wallet, { short_exchange: 'extended' }),
      );
      expect(missing.status).toBe(403);
      expect(missing.body.code).toBe('credentials_not_linked');
      const other = await gateway.trader(['hyperliquid', 'paradex']);
      const foreign = await create(
        gateway.tradeBody(trader.wallet, { short_wallet: other.wallet }),
      );
      expect(foreign.status).toBe(403);
      expect(foreign.body.code).toBe('credentials_not_linked');
    });

    it('6: the maker cap per (wallet, maker venue) is 409 with the interface text', async () => {
      const accepted = [];
      for (let index = 0; index < 2; index += 1) {
        const response = await create(gateway.tradeBody(trader.wallet));
        expect(response.status).toBe(202);
        accepted.push(response.body.trade_id);
      }
      const refused = await create(gateway.tradeBody(trader.wallet));
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('maker_cap_exceeded');
      expect(refused.body.error).toMatch(
        /^max 2 concurrent maker trades on hyperliquid .* already has 2 active$/,
      );
      // Trades where the wallet is only on the hedge leg do not count.
      const hedgeOnly = await create(
        gateway.tradeBody(trader.wallet, { maker_leg: 'short', market: 'ETH' }),
      );
      expect(hedgeOnly.status).toBe(202);
      for (const tradeId of [...accepted, hedgeOnly.body.trade_id]) {
        await cancel(tradeId);
      }
      const afterCancel = await create(gateway.tradeBody(trader.wallet));
      expect(afterCancel.status).toBe(202);
      await cancel(afterCancel.body.trade_id);
    });

    it('6: 20 concurrent creates against a cap of 2 give exactly 2 accepted and 18 refused', async () => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => create(gateway.tradeBody(trader.wallet))),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 202)).toHaveLength(2);
      expect(statuses.filter((status) => status === 409)).toHaveLength(18);
      const live = await gateway.query(
        `SELECT count(*)::int AS n FROM trades WHERE maker_wallet = $1 AND maker_exchange = 'hyperliquid' AND status = 'pending'`,
        [trader.wallet],
      );
      expect(live[0].n).toBe(2);
      for (const response of responses.filter((r) => r.status === 202)) {
        await cancel(response.body.trade_id);
      }
    });
  });
});
