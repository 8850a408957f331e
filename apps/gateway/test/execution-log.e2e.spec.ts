import { Client } from 'pg';
import { sleep } from '@sts/platform';
import { GatewayHarness } from './gateway-harness';

/**
 * The execution log as a client reads it (pages that say where they
 * continue) and as the database keeps it (append-only, whoever asks).
 */
describe('the execution log', () => {
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    trader = await gateway.trader(['hyperliquid', 'paradex']);
  });
  afterAll(() => gateway.stop());

  async function tradeWithLog(entries: number): Promise<string> {
    const created = await gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(trader.wallet),
    });
    expect(created.status).toBe(202);
    const tradeId: string = created.body.trade_id;
    // Written as a worker appends (decisions section 6), sequences 1..entries.
    await gateway.query(
      `WITH appended AS (
         UPDATE trades SET last_sequence = $2, status = 'canceled', completed_at = now()
         WHERE id = $1 RETURNING id)
       INSERT INTO trade_events (trade_id, sequence, event_type, data, worker_id)
       SELECT id, n, 'hedge_timeout',
         jsonb_build_object('exchange', 'paradex', 'order_id', 'o-' || n, 'waited_ms', 3000,
           'unhedged_size', '0.001'), 'w-1'
       FROM appended, generate_series(1, $2) AS n`,
      [tradeId, entries],
    );
    return tradeId;
  }

  const events = (tradeId: string, query = '') =>
    gateway.request('GET', `/api/v1/trades/${tradeId}/events${query}`, {
      headers: trader.headers,
    });
  const sequences = (body: { events: Array<{ sequence: number }> }) =>
    body.events.map((event) => event.sequence);

  describe('GET /trades/{id}', () => {
    it('reads a trade whose log is empty without the log, and one with entries from it', async () => {
      const created = await gateway.request('POST', '/api/v1/trades', {
        headers: trader.headers,
        body: gateway.tradeBody(trader.wallet),
      });
      const emptyId: string = created.body.trade_id;
      const loggedId = await tradeWithLog(1);
      const trade = (tradeId: string) =>
        gateway.request('GET', `/api/v1/trades/${tradeId}`, { headers: trader.headers });
      // While another session holds the log table, a read of it waits for the lock.
      const locker = new Client({ connectionString: gateway.env['DATABASE_URL'] });
      await locker.connect();
      try {
        await locker.query('BEGIN; LOCK TABLE trade_events IN ACCESS EXCLUSIVE MODE');
        const empty = await trade(emptyId);
        expect(empty.status).toBe(200);
        expect(empty.body.trade_id).toBe(emptyId);
        const logged = trade(loggedId);
        const first = await Promise.race([logged.then(() => 'answered'), sleep(300)]);
        expect(first).toBeUndefined();
        await locker.query('ROLLBACK');
        expect((await logged).status).toBe(200);
      } finally {
        await locker.end();
      }
    });
  });

  describe('GET /trades/{id}/events', () => {
    it('says when more than the page exists and where to continue (5,000 by default)', async () => {
      const tradeId = await tradeWithLog(5_001);
      const first = await events(tradeId);
      expect(first.status).toBe(200);
      expect(first.body.events).toHaveLength(5_000);
      expect(first.body).toMatchObject({
        trade_id: tradeId,
        has_more: true,
        next_after_sequence: 5_000,
      });
      const rest = await events(tradeId, `?after_sequence=${first.body.next_after_sequence}`);
      expect(sequences(rest.body)).toEqual([5_001]);
      expect(rest.body.has_more).toBe(false);
      expect(rest.body).not.toHaveProperty('next_after_sequence');
    });

    it('pages by limit; a page that ends the log exactly has no more', async () => {
      const tradeId = await tradeWithLog(3);
      const first = await events(tradeId, '?limit=2');
      expect(sequences(first.body)).toEqual([1, 2]);
      expect(first.body).toMatchObject({ has_more: true, next_after_sequence: 2 });
      const last = await events(tradeId, '?after_sequence=2&limit=1');
      expect(last.body).toEqual({
        trade_id: tradeId,
        events: [expect.objectContaining({ sequence: 3, event_type: 'hedge_timeout' })],
        has_more: false,
      });
      expect((await events(tradeId, '?limit=3')).body.has_more).toBe(false);
      expect((await events(tradeId, '?after_sequence=3')).body).toEqual({
        trade_id: tradeId,
        events: [],
        has_more: false,
      });
    });
  });

  describe('append-only in the database, for the service own database user', () => {
    let db: Client;
    beforeAll(async () => {
      // The user the gateway (and every service) connects as: the owner of the tables.
      db = new Client({ connectionString: gateway.env['DATABASE_URL'] });
      await db.connect();
    });
    afterAll(() => db.end());

    /** The error Postgres answers, or 'done'. */
    const attempt = (sql: string, params: readonly unknown[]) =>
      db.query(sql, [...params]).then(
        () => 'done',
        (error: Error) => error.message,
      );

    it('refuses UPDATE, DELETE and TRUNCATE of log entries, and DELETE of a trade with a log', async () => {
      const tradeId = await tradeWithLog(3);
      const before = (await events(tradeId)).body;
      const onLog = [
        [`UPDATE trade_events SET data = '{}' WHERE trade_id = $1`, [tradeId]],
        [`UPDATE trade_events SET event_type = 'x' WHERE false`, []],
        [`DELETE FROM trade_events WHERE trade_id = $1 AND sequence = 2`, [tradeId]],
        [`DELETE FROM trade_events`, []],
        [`TRUNCATE trade_events`, []],
        [`TRUNCATE trades CASCADE`, []],
      ] as const;
      const outcomes: string[][] = [];
      for (const [sql, params] of onLog) {
        outcomes.push([sql, await attempt(sql, params)]);
      }
      expect(outcomes).toEqual(
        onLog.map(([sql]) => [sql, expect.stringMatching(/execution log is append-only/)]),
      );
      expect(await attempt(`DELETE FROM trades WHERE id = $1`, [tradeId])).toMatch(
        /violates foreign key constraint "trade_events_trade_id_fkey"/,
      );
      expect((await events(tradeId)).body).toEqual(before);
    });

    it('keeps appending and reading', async () => {
      const tradeId = await tradeWithLog(2);
      await db.query(
        `WITH appended AS (
           UPDATE trades SET last_sequence = last_sequence + 1 WHERE id = $1 RETURNING last_sequence)
         INSERT INTO trade_events (trade_id, sequence, event_type, data, worker_id)
         SELECT $1, last_sequence, 'chunk_completed',
           '{"filled_size": "0", "reason": "canceled", "residual_unhedged": "0"}', 'w-1'
         FROM appended`,
        [tradeId],
      );
      expect(sequences((await events(tradeId)).body)).toEqual([1, 2, 3]);
      // The trade row itself stays writable (status changes, amendments, leases).
      await db.query(`UPDATE trades SET updated_at = now() WHERE id = $1`, [tradeId]);
    });
  });
});
