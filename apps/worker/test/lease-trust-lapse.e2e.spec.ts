import Big from 'big.js';
import { Client } from 'pg';
import { sleep } from '@sts/platform';
import type { VenueOrder } from '@sts/venues';
import { eventually } from './eventually';
import { WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(90_000);

/** A 20 s lease renewed every half second: trusted 16 s after a renewal began. */
const LEASE_TTL_MS = 20_000;
const RENEW_MS = 500;

/**
 * A worker trusts its lease for 80 % of the TTL after the renewal that
 * extended it began; a renewal held up (a slow database) leaves a moment in
 * which the lease is still the worker's in Postgres but not trusted, and no
 * venue is touched. What the trade could not do in that moment (hedge a maker
 * fill, take its maker order down for a cancel) must be done once the
 * renewal confirms the lease, not dropped: a hedge skipped there left a
 * trade `canceled` with its maker fills unhedged on the venues (seen once in
 * the chaos spec), and a cancel ended the trade with its order resting.
 *
 * The lapse is made with a row lock: the worker renews every lease it holds
 * in one statement, so a transaction holding a second trade's row (the
 * decoy's) holds the renewal, and the trade under test stays free for the
 * gateway and the worker's log.
 */
describe('a lapse of lease trust defers what the trade must do on the venues', () => {
  const harness = new WorkerHarness();
  let lockHolder: Client;

  beforeAll(async () => {
    await harness.start({
      workers: 1,
      env: { WORKER_LEASE_TTL_MS: String(LEASE_TTL_MS), WORKER_LEASE_RENEW_MS: String(RENEW_MS) },
    });
    lockHolder = new Client({ connectionString: harness.gateway.env['DATABASE_URL'] });
    await lockHolder.connect();
  });

  afterAll(async () => {
    await lockHolder.end();
    await harness.stop();
  });

  const venueFilled = async (trader: Trader, venue: string): Promise<string> =>
    (await harness.sim.fillsOf(venue, trader.wallet))
      .reduce((sum, fill) => sum.plus(fill.size), new Big(0))
      .toFixed();

  /** A trade whose condition always holds, its maker bid resting on Hyperliquid (hedge: Paradex). */
  async function restingTrade(): Promise<{ trader: Trader; tradeId: string; order: VenueOrder }> {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.05',
      target_spread: '-1000',
    });
    await harness.waitForStatus(trader, tradeId, 'active', 20_000);
    return { trader, tradeId, order: await harness.waitForRestingOrder(trader, 'hyperliquid') };
  }

  /**
   * Holds the decoy's row until the worker waits on it (its renewals, every
   * period, now all wait), then until the trust of the last renewal through
   * has run out (`LEASE_TTL_MS` * 0.8 after it began, before the lock):
   * resolves with `release`, which lets the renewal through. The lease in
   * Postgres runs out only `LEASE_TTL_MS` * 0.2 later.
   */
  async function lapseTrust(decoyId: string): Promise<{ release: () => Promise<void> }> {
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
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    // The renewal held began at most a period after the lock; the one before it, before the
    // lock: trusted until 16 s after that, lapsed 16.8 s from now. The lease runs until 20 s.
    await sleep(LEASE_TTL_MS * 0.8 + 800);
    return { release: async () => void (await lockHolder.query('ROLLBACK')) };
  }

  it('hedges a maker fill that came while the lease was not trusted, once it is', async () => {
    const decoy = await restingTrade();
    const { trader, tradeId, order } = await restingTrade();

    const lapse = await lapseTrust(decoy.tradeId);
    await harness.takeFromMaker(order, '0.01');
    await eventually(
      async () => (await venueFilled(trader, 'hyperliquid')) === '0.01',
      'the maker fill on the venue',
      { timeoutMs: 2_000, intervalMs: 50 },
    );
    await lapse.release();

    await eventually(
      async () => (await venueFilled(trader, 'paradex')) === '0.01',
      'the fill hedged on paradex once the lease is trusted again',
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    await harness.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
    });
    const ended = await harness.waitForStatus(trader, tradeId, 'canceled', 15_000);
    expect(ended.filled_size).toBe('0.01');
    expect(await venueFilled(trader, 'paradex')).toBe('0.01');
    await harness.waitForNoOpenOrders(trader, 'hyperliquid');
  });

  it('neither re-quotes nor cancels while the lease is not trusted; cancels once it is', async () => {
    const decoy = await restingTrade();
    const { trader, tradeId, order } = await restingTrade();

    const lapse = await lapseTrust(decoy.tradeId);
    // The bid's touch moves up: a trusted trade would re-price its order at once.
    await harness.sim.jumpVenue('hyperliquid', 5, 'BTC');
    await sleep(500);
    expect((await harness.openOrders(trader, 'hyperliquid')).map((o) => o.price)).toEqual([
      order.price,
    ]);
    const canceled = await harness.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
    });
    expect(canceled.status).toBe(202);
    // The cancel is not carried out on the venue while the lease is not trusted.
    await sleep(500);
    expect(await harness.openOrders(trader, 'hyperliquid')).toHaveLength(1);
    await lapse.release();

    await harness.waitForStatus(trader, tradeId, 'canceled', 15_000);
    await harness.waitForNoOpenOrders(trader, 'hyperliquid');
  });
});
