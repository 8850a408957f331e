/**
 * The ceiling the gateway bench compares against: bare Fastify + node-postgres
 * on the same database, one INSERT of a trade row per POST and one SELECT of it
 * per GET, nothing else (no authentication, validation, logging, budget or
 * outbox). Its rows are written terminal (canceled), so the budget service's sweep does not
 * adopt them as live trades of the bench's traders. Run as its own process by gateway-trades.bench.ts:
 *   DATABASE_URL=... CEILING_PORT=... CEILING_USER_ID=... node dist/bench/gateway-ceiling.js
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Pool } from 'pg';

interface CreateBody {
  market: string;
  long_exchange: string;
  long_wallet: string;
  short_exchange: string;
  short_wallet: string;
  target_spread: string;
  spread_condition: string;
  target_size: string;
  max_slippage: string;
}

const INSERT = `INSERT INTO trades (id, user_id, market, long_exchange, long_wallet, short_exchange,
  short_wallet, maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet, cap_group,
  target_spread, spread_condition, target_size, max_slippage, status, rate_budget, idempotency_key,
  completed_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, 'long', $4, $5, $6, $7, $4, $8, $9, $10, $11, 'canceled', 1,
  $12, now())`;

async function main(): Promise<void> {
  const userId = process.env['CEILING_USER_ID'] ?? '';
  // The gateway's pool size (dataSourceOptions: max 20), so both sides get the same connections.
  const pool = new Pool({ connectionString: process.env['DATABASE_URL'], max: 20 });
  const app = Fastify({ logger: false });
  app.get('/livez', async () => ({ status: 'ok' }));
  app.post('/trades', async (request, reply) => {
    const body = request.body as CreateBody;
    const id = randomUUID();
    await pool.query(INSERT, [
      id,
      userId,
      body.market,
      body.long_exchange,
      body.long_wallet,
      body.short_exchange,
      body.short_wallet,
      body.target_spread,
      body.spread_condition,
      body.target_size,
      body.max_slippage,
      id,
    ]);
    await reply.status(202).send({ trade_id: id, status: 'canceled' });
  });
  app.get('/trades/:id', async (request) => {
    const { id } = request.params as { id: string };
    const { rows } = await pool.query('SELECT * FROM trades WHERE id = $1 AND user_id = $2', [
      id,
      userId,
    ]);
    return rows[0];
  });
  await app.listen({ port: Number(process.env['CEILING_PORT']), host: '127.0.0.1' });
  process.once('SIGTERM', () => {
    void app.close().then(() => pool.end().then(() => process.exit(0)));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
