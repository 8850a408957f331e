import Big from 'big.js';
import { Client } from 'pg';
import { sleep } from '@sts/platform';
import type { VenueOrder } from '@sts/venues';
import { eventually } from './eventually';
import { WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(90_000);

/** A 30 s lease: trusted 24 s after the renewal that extended it began, its own 6 s more. */
const LEASE_TTL_MS = 30_000;
const TRUST_MS = LEASE_TTL_MS * 0.8;

/**
 * One worker whose lease renewals the spec can hold, and trades on it.
 *
 * The lapse is made with a row lock: the worker renews every lease it holds
 * in one statement, so a transaction holding a second trade's row (the
 * decoy's) holds the renewal. That statement may have locked the trade
 * under test's row already (the planner's order), so nothing of the spec
 * writes that row while the renewal is held.
 */
function lapsingWorker(renewMs: number) {
  const harness = new WorkerHarness();
  let lockHolder: Client;

  beforeAll(async () => {
    await harness.start({
      workers: 1,
      env: { WORKER_LEASE_TTL_MS: String(LEASE_TTL_MS), WORKER_LEASE_RENEW_MS: String(renewMs) },
    });
    lockHolder = new Client({ connectionString: harness.gateway.env['DATABASE_URL'] });
    await lockHolder.connect();
  });

  afterAll(async () => {
    await lockHolder.end();
    await harness.stop();
  });

  return {
    harness,

    /** A trade whose condition always holds, its maker bid resting on Hyperliquid (hedge: Paradex). */
    async restingTrade(): Promise<{ trader: Trader; tradeId: string; order: VenueOrder }> {
      const trader = await harness.trader();
      const tradeId = await harness.createTrade(trader, {
        target_size: '0.05',
        target_spread: '-1000',
      });
      await harness.waitForStatus(trader, tradeId, 'active', 20_000);
      return { trader, tradeId, order: await harness.waitForRestingOrder(trader, 'hyperliquid') };
    },

    /**
     * Holds the decoy's row until a renewal of the worker waits on it (seen in
     * pg_stat_activity, at most a round trip after it began), then `holdMs`
     * more; resolves with `release`, which lets the renewal through.
     */
    async holdRenewal(decoyId: string, holdMs: number): Promise<{ release: () => Promise<void> }> {
      await lockHolder.query('BEGIN');
      await lockHolder.query('SELECT id FROM trades WHERE id = $1 FOR UPDATE', [decoyId]);
      await eventually(
        async () => {
          const { rows } = await lockHolder.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE datname = current_database() AND application_name LIKE 'sts-worker-%'
               AND wait_event_type = 'Lock'`,
          );
          return rows[0].n > 0;
        },
        "the worker's lease renewal to wait on the decoy's row",
        { timeoutMs: renewMs + 5_000, intervalMs: 20 },
      );
      await sleep(holdMs);
      return { release: async () => void (await lockHolder.query('ROLLBACK')) };
    },

    async venueFilled(trader: Trader, venue: string): Promise<string> {
      return (await harness.sim.fillsOf(venue, trader.wallet))
        .reduce((sum, fill) => sum.plus(fill.size), new Big(0))
        .toFixed();
    },
  };
}

/**
 * A worker trusts its lease for 80 % of the TTL after the renewal that
 * extended it began; a renewal held up (a slow database) leaves a moment in
 * which the lease is still the worker's in Postgres but not trusted, and no
 * venue is touched. What the trade could not do in that moment (hedge a maker
 * fill, re-quote, take its maker order down for a cancel) must be done once a
 * renewal trusts the lease again, not dropped: a hedge skipped there left a
 * trade `canceled` with its maker fills unhedged on the venues (seen once in
 * the chaos spec), and a cancel ended the trade with its order resting.
 */
describe('a lapse of lease trust defers what the trade must do on the venues', () => {
  describe('renewed every half second', () => {
    const world = lapsingWorker(500);
    const { harness } = world;

    it('hedges a maker fill that came while the lease was not trusted, once it is', async () => {
      const decoy = await world.restingTrade();
      const { trader, tradeId, order } = await world.restingTrade();

      // The renewal before the held one began before the lock: its trust has run out
      // 24.8 s from when the held one waits, and the lease in Postgres runs until 30 s.
      const held = await world.holdRenewal(decoy.tradeId, TRUST_MS + 800);
      await harness.takeFromMaker(order, '0.01');
      await eventually(
        async () => (await world.venueFilled(trader, 'hyperliquid')) === '0.01',
        'the maker fill on the venue',
        { timeoutMs: 2_000, intervalMs: 50 },
      );
      await held.release();

      await eventually(
        async () => (await world.venueFilled(trader, 'paradex')) === '0.01',
        'the fill hedged on paradex once the lease is trusted again',
        { timeoutMs: 10_000, intervalMs: 100 },
      );
      await harness.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
        headers: trader.headers,
      });
      const ended = await harness.waitForStatus(trader, tradeId, 'canceled', 15_000);
      expect(ended.filled_size).toBe('0.01');
      expect(await world.venueFilled(trader, 'paradex')).toBe('0.01');
      await harness.waitForNoOpenOrders(trader, 'hyperliquid');
    });
  });

  describe('renewed every 3 s', () => {
    const RENEW_MS = 3_000;
    const world = lapsingWorker(RENEW_MS);
    const { harness } = world;

    it('neither re-quotes nor cancels while the lease is not trusted; cancels once it is', async () => {
      const decoy = await world.restingTrade();
      const { trader, tradeId, order } = await world.restingTrade();

      // Held past the held renewal's own trust (24 s after it began): once let through it
      // still leaves the lease untrusted, until the next renewal a period later. The rows
      // are free in that period: the cancel comes then.
      const held = await world.holdRenewal(decoy.tradeId, TRUST_MS + 500);
      // The bid's touch moves up: a trusted trade would re-price its order at once.
      await harness.sim.jumpVenue('hyperliquid', 5, 'BTC');
      await sleep(300);
      await held.release();
      const canceled = await harness.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
        headers: trader.headers,
      });
      expect(canceled.status).toBe(202);
      await sleep(500);
      // Neither the re-quote nor the cancel has touched the venue while the lease is not trusted.
      expect((await harness.openOrders(trader, 'hyperliquid')).map((o) => o.price)).toEqual([
        order.price,
      ]);

      await harness.waitForStatus(trader, tradeId, 'canceled', 15_000);
      await harness.waitForNoOpenOrders(trader, 'hyperliquid');
    });
  });
});
