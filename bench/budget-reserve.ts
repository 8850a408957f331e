/**
 * Budget service figures on the machine's real Redis, NATS and Postgres:
 * reserve/release latency one at a time, throughput with many callers on many
 * accounts, and a stampede on one account. Run: node tools/build.mjs &&
 * node dist/bench/budget-reserve.js
 */
import { randomUUID } from 'node:crypto';
import { BudgetClient, BudgetRefusedError } from '@sts/budget-client';
import type { BudgetAccount } from '@sts/contracts';
import { connectNats, loadVenueRegistry } from '@sts/platform';
import { createTestDatabase, testNamespace } from '@sts/testing';
import { loadBudgetSettings, startBudgetService } from '@sts/app-budget';
import { percentile } from './run-bench';

const wallet = (): string => `0x${randomUUID().replace(/-/g, '').slice(0, 20)}`;
const ms = (ns: bigint): number => Number(ns) / 1e6;

async function main(): Promise<void> {
  const db = await createTestDatabase();
  const ns = testNamespace();
  const settings = loadBudgetSettings({
    DATABASE_URL: db.url,
    NATS_PREFIX: ns.natsPrefix,
    REDIS_PREFIX: ns.redisPrefix,
    LOG_LEVEL: 'silent',
  });
  const venues = loadVenueRegistry({ VENUE_LIGHTER_RATE_LIMIT_PER_S: '100000' });
  const service = await startBudgetService(settings, { venues });
  const nc = await connectNats({ url: settings.natsUrl, name: 'budget-bench' });
  const client = new BudgetClient(nc, { natsPrefix: ns.natsPrefix, timeoutMs: 5_000 });
  const hedge = (): BudgetAccount => ({ venue: 'paradex', wallet: wallet() });

  try {
    // 1. One caller: reserve then release, each timed.
    const reserveMs: number[] = [];
    const releaseMs: number[] = [];
    for (let i = 0; i < 2_000; i += 1) {
      const tradeId = randomUUID();
      const maker: BudgetAccount = { venue: 'aster', wallet: wallet() };
      let started = process.hrtime.bigint();
      await client.reserve({ tradeId, maker, hedge: hedge() });
      reserveMs.push(ms(process.hrtime.bigint() - started));
      started = process.hrtime.bigint();
      await client.release(tradeId, 'completed');
      releaseMs.push(ms(process.hrtime.bigint() - started));
    }
    for (const [name, values] of [
      ['reserve', reserveMs],
      ['release', releaseMs],
    ] as const) {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(
        `${name} latency (1 caller, 2000 ops): p50 ${percentile(sorted, 50).toFixed(2)} ms, ` +
          `p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms`,
      );
    }

    // 2. 50 callers for 5 s, each on its own account (reserve + release pairs).
    const deadline = Date.now() + 5_000;
    let pairs = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        const maker: BudgetAccount = { venue: 'hyperliquid', wallet: wallet() };
        while (Date.now() < deadline) {
          const tradeId = randomUUID();
          await client.reserve({ tradeId, maker, hedge: hedge() });
          await client.release(tradeId, 'completed');
          pairs += 1;
        }
      }),
    );
    console.log(`throughput (50 callers, 5 s): ${Math.round((pairs * 2) / 5)} ops/s`);

    // 3. 500 reserves at once on one account (lighter at 100000/s, min 4: all fit).
    const crowded: BudgetAccount = { venue: 'lighter', wallet: wallet() };
    let started = process.hrtime.bigint();
    const results = await Promise.allSettled(
      Array.from({ length: 500 }, () =>
        client.reserve({ tradeId: randomUUID(), maker: crowded, hedge: hedge() }),
      ),
    );
    const elapsed = ms(process.hrtime.bigint() - started);
    const state = await client.account(crowded);
    console.log(
      `stampede: 500 concurrent reserves on one account in ${elapsed.toFixed(0)} ms; ` +
        `${results.filter((r) => r.status === 'fulfilled').length} granted, ` +
        `${results.filter((r) => r.status === 'rejected' && r.reason instanceof BudgetRefusedError).length} refused; ` +
        `${state.holders.length} holders x ${state.share} = ${state.holders.length * state.share} <= ${state.limit}`,
    );
    started = process.hrtime.bigint();
    await Promise.all(state.holders.map((h) => client.release(h.trade_id, 'completed')));
    console.log(
      `stampede release: ${state.holders.length} concurrent releases in ${ms(process.hrtime.bigint() - started).toFixed(0)} ms`,
    );
  } finally {
    client.close();
    await service.close();
    await nc.drain();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
