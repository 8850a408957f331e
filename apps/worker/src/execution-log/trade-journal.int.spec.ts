import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@sts/persistence';
import { createLogger } from '@sts/platform';
import { createTestDatabase, type TestDatabase } from '@sts/testing';
import { logEntry } from '@sts/contracts';
import { TradeJournal } from './trade-journal';

/**
 * A DataSource whose first append commits on the server but whose answer is
 * lost on the way back, as when a connection drops right after COMMIT.
 */
function losingFirstAnswer(dataSource: DataSource): DataSource {
  let lost = false;
  const manager = new Proxy(dataSource.manager, {
    get(target, property, receiver) {
      if (property !== 'query') {
        return Reflect.get(target, property, receiver);
      }
      return async (sql: string, params?: unknown[]) => {
        const result = await target.query(sql, params);
        if (!lost && sql.includes('INSERT INTO trade_events')) {
          lost = true;
          throw new Error('Connection terminated unexpectedly');
        }
        return result;
      };
    },
  });
  return new Proxy(dataSource, {
    get: (target, property, receiver) =>
      property === 'manager' ? manager : Reflect.get(target, property, receiver),
  });
}

describe('TradeJournal', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createDataSource(database.url, 'journal-spec');
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function leasedTrade(): Promise<string> {
    const userId = randomUUID();
    const tradeId = randomUUID();
    const wallet = `0x${'1'.repeat(40)}`;
    await database.query(
      `INSERT INTO users (id, primary_wallet) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [userId, `${wallet}-${userId}`],
    );
    await database.query(
      `INSERT INTO trades (id, user_id, market, long_exchange, long_wallet, short_exchange, short_wallet,
         maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet, cap_group, target_spread,
         spread_condition, target_size, max_slippage, status, rate_budget, idempotency_key,
         lease_owner, lease_expires_at, lease_epoch)
       VALUES ($1, $2, 'BTC', 'hyperliquid', $3, 'paradex', $3, 'long', 'hyperliquid', $3, 'paradex', $3,
         'hyperliquid', '5', 'gte', '0.01', '0.001', 'active', 10, $4, 'w-1', now() + interval '1 minute', 1)`,
      [tradeId, userId, wallet, `idem-${tradeId}`],
    );
    return tradeId;
  }

  it('an append whose commit answer was lost is retried without a duplicate or a gap', async () => {
    const tradeId = await leasedTrade();
    const logged: string[] = [];
    const journal = new TradeJournal(
      losingFirstAnswer(dataSource),
      { tradeId, userId: 'u', workerId: 'w-1', epoch: '1', natsPrefix: 't', correlationId: 'c' },
      {
        onLeaseLost: () => undefined,
        onOutboxWritten: () => undefined,
        onLogged: (entries) => logged.push(...entries.map((entry) => entry.eventType)),
        logger: createLogger('spec', 'silent'),
      },
    );
    await journal.append([logEntry('chunk_started', { target_size: '0.01', size_type: 'base' })]);
    const makerFill = {
      exchange: 'hyperliquid',
      market: 'BTC',
      side: 'buy' as const,
      price: '65000',
      size: '0.004',
      order_id: 'o-1',
      client_order_id: 'c-1',
      fully_filled: false,
      timestamp_ms: 1,
      fill_id: 'f-1',
      fee: '0.052',
      fee_asset: 'USD',
      liquidity: 'maker' as const,
    };
    await journal.append([logEntry('maker_fill', makerFill)], '0.004');
    const rows = await database.query<{ sequence: number; event_type: string }>(
      `SELECT sequence, event_type FROM trade_events WHERE trade_id = $1 ORDER BY sequence`,
      [tradeId],
    );
    expect(rows).toEqual([
      { sequence: 1, event_type: 'chunk_started' },
      { sequence: 2, event_type: 'maker_fill' },
    ]);
    const [trade] = await database.query<{ last_sequence: number; filled_size: string }>(
      `SELECT last_sequence, filled_size FROM trades WHERE id = $1`,
      [tradeId],
    );
    expect(trade).toEqual({ last_sequence: 2, filled_size: '0.004' });
    // Counted once each, the retried write too.
    expect(logged).toEqual(['chunk_started', 'maker_fill']);
  });

  it('hears the entries a status change writes, as it hears appends (the metrics count both)', async () => {
    // recovery_completed is written with the status it restores: the recoveries
    // counter, fed only by appends, never moved.
    const tradeId = await leasedTrade();
    const logged: string[] = [];
    const journal = new TradeJournal(
      dataSource,
      { tradeId, userId: 'u', workerId: 'w-1', epoch: '1', natsPrefix: 't', correlationId: 'c' },
      {
        onLeaseLost: () => undefined,
        onOutboxWritten: () => undefined,
        onLogged: (entries) => logged.push(...entries.map((entry) => entry.eventType)),
        logger: createLogger('spec', 'silent'),
      },
    );
    await journal.changeStatus({
      from: 'active',
      to: 'paused',
      entries: [
        logEntry('recovery_completed', {
          previous_worker_id: 'w-0',
          open_orders_canceled: 0,
          fills_reconciled: 0,
          rehedged_size: '0',
        }),
      ],
    });
    expect(logged).toEqual(['recovery_completed']);
  });

  it('a fill entry goes to the outbox in its append, with the log sequence and created_at', async () => {
    const tradeId = await leasedTrade();
    const written: string[] = [];
    const journal = new TradeJournal(
      dataSource,
      { tradeId, userId: 'u-1', workerId: 'w-1', epoch: '1', natsPrefix: 't', correlationId: 'c' },
      {
        onLeaseLost: () => undefined,
        onOutboxWritten: (kind) => written.push(kind),
        onLogged: () => undefined,
        logger: createLogger('spec', 'silent'),
      },
    );
    await journal.append([logEntry('chunk_started', { target_size: '0.01', size_type: 'base' })]);
    expect(written).toEqual([]);
    const hedgeFilled = {
      exchange: 'paradex',
      side: 'sell' as const,
      price: '65010',
      size: '0.004',
      order_id: 'h-1',
      timestamp_ms: 2,
      client_order_id: 'hc-1',
      fee: null,
      fee_asset: null,
      liquidity: 'taker' as const,
    };
    await journal.append([
      logEntry('hedge_sent', {
        exchange: 'paradex',
        side: 'sell',
        size: '0.004',
        price: '65000',
        client_order_id: 'hc-1',
        attempt: 1,
        cause: 'f-1',
      }),
      logEntry('hedge_filled', hedgeFilled),
    ]);
    // Fill messages alone: the worker publishes them within its fill-push window.
    expect(written).toEqual(['fills']);
    const [logged] = await database.query<{ created_at: Date }>(
      `SELECT created_at FROM trade_events WHERE trade_id = $1 AND sequence = 3`,
      [tradeId],
    );
    const outbox = await database.query<{ subject: string; message_id: string; payload: any }>(
      `SELECT subject, message_id, payload FROM outbox WHERE subject = $1`,
      [`t.events.fills.${tradeId}`],
    );
    expect(outbox).toEqual([
      {
        subject: `t.events.fills.${tradeId}`,
        message_id: `fill-${tradeId}-3`,
        payload: {
          message_id: `fill-${tradeId}-3`,
          type: 'trade.fill',
          correlation_id: 'c',
          occurred_at: logged.created_at.toISOString(),
          payload: {
            trade_id: tradeId,
            user_id: 'u-1',
            sequence: 3,
            event_type: 'hedge_filled',
            created_at: logged.created_at.toISOString(),
            data: hedgeFilled,
          },
        },
      },
    ]);
    // A status change writes a lifecycle event: published at once.
    await journal.changeStatus({ from: 'active', to: 'completed' });
    expect(written).toEqual(['fills', 'lifecycle']);
  });

  /** Another session holding the trade's row: every append waits on it until `free()`. */
  async function holdRow(tradeId: string): Promise<{ free: () => Promise<void> }> {
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM trades WHERE id = $1 FOR UPDATE', [tradeId]);
    return {
      free: async () => {
        await holder.query('COMMIT');
        await holder.end();
      },
    };
  }

  function journalOf(tradeId: string): TradeJournal {
    return new TradeJournal(
      dataSource,
      { tradeId, userId: 'u-1', workerId: 'w-1', epoch: '1', natsPrefix: 't', correlationId: 'c' },
      {
        onLeaseLost: () => undefined,
        onOutboxWritten: () => undefined,
        onLogged: () => undefined,
        logger: createLogger('spec', 'silent'),
      },
    );
  }

  const mark = (horizon: 1 | 10 | 60) =>
    logEntry('markout', { fill_id: 'f-1', horizon_s: horizon, mid: '65000', bps: '1' });

  // An ended trade's last marks: one write in flight, one queued behind it, when the runner
  // closes the trade and gives its lease up. Closed at once, the queued one was refused
  // ("execution log write lost") and the release could beat the one in flight to the fence.
  it('tells whether what is queued and in flight was written in time, before a close', async () => {
    const tradeId = await leasedTrade();
    const journal = journalOf(tradeId);
    const row = await holdRow(tradeId);
    const inFlight = journal.append([mark(10)]);
    const queued = journal.append([mark(60)]);
    expect(await journal.written(200)).toBe(false);
    setTimeout(() => void row.free(), 200);
    expect(await journal.written(10_000)).toBe(true);
    expect(journal.close()).toBe(false);
    await expect(Promise.all([inFlight, queued])).resolves.toEqual([undefined, undefined]);
    const rows = await database.query<{ sequence: number; horizon: number }>(
      `SELECT sequence, (data->>'horizon_s')::int AS horizon FROM trade_events
        WHERE trade_id = $1 ORDER BY sequence`,
      [tradeId],
    );
    expect(rows).toEqual([
      { sequence: 1, horizon: 10 },
      { sequence: 2, horizon: 60 },
    ]);
  });

  // A write asked for between the wait above and the close (an answer that came in between)
  // is refused by the close: the close says so, and the runner then keeps the lease to expire
  // for the next owner's recovery instead of giving it up over a write nobody makes again.
  it('says a close left a write unfinished, and refuses later writes as asked after it', async () => {
    const tradeId = await leasedTrade();
    const journal = journalOf(tradeId);
    const row = await holdRow(tradeId);
    const inFlight = journal.append([mark(1)]);
    const queued = journal.append([mark(10)]);
    expect(journal.close()).toBe(true);
    await expect(queued).rejects.toMatchObject({
      name: 'JournalClosedError',
      asked: 'before_close',
    });
    await expect(journal.append([mark(60)])).rejects.toMatchObject({
      name: 'JournalClosedError',
      asked: 'after_close',
    });
    await row.free();
    await inFlight.catch(() => undefined);
    const idle = journalOf(tradeId);
    expect(idle.close()).toBe(false);
  });
});
