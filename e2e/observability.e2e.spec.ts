import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { Api, createTrader, idempotencyKey, type Trader } from './fault-matrix/api';
import { Fleet } from './fault-matrix/fleet';
import { MarketDriver, PAIRS } from './fault-matrix/market';
import { PrivateServices } from './fault-matrix/private-services';
import { delay } from './fault-matrix/processes';
import { PrometheusServer } from './observability/prometheus-server';

/**
 * Issue 21: a real Prometheus scrapes every service of a running fleet (as
 * processes, on private Postgres, NATS and Redis) while trades fill on paper
 * venues, and its HTTP API shows the fills, the hedges, the latency
 * histograms and, at rest, a zero unhedged-exposure gauge, each set against
 * the execution log's own count.
 */
const ROOT = resolve(__dirname, '..');
const RUN = new Date().toISOString().replace(/[:.]/g, '-');
const LOG_DIR = join(ROOT, 'tmp', 'observability', RUN);
const SEED = 20_261_124;
const TERMINAL = ['completed', 'canceled', 'failed', 'rejected'];

async function until<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) {
        return value;
      }
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`not within ${timeoutMs} ms: ${String(last ?? '')}`);
    }
    await delay(200);
  }
}

describe('metrics end to end: Prometheus scrapes the fleet while trades run', () => {
  const services = new PrivateServices(LOG_DIR);
  const fleet = new Fleet(services, LOG_DIR, SEED);
  const prometheus = new PrometheusServer(join(LOG_DIR, 'prometheus'));
  let market: MarketDriver | undefined;
  let api: Api;

  const query = async <T = any>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: services.databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const events = async (type: string, where = 'true'): Promise<number> =>
    (
      await query<{ n: number }>(
        `SELECT count(*)::int AS n FROM trade_events WHERE event_type = $1 AND ${where}`,
        [type],
      )
    )[0].n;

  beforeAll(async () => {
    await services.start();
    await fleet.start(2);
    api = new Api(fleet.gatewayUrl);
    await prometheus.start(
      fleet.processes.map((entry) => ({
        job: `sts-${entry.service}`,
        instance: entry.id,
        address: entry.metricsUrl.replace('http://', ''),
      })),
    );
  }, 240_000);

  afterAll(async () => {
    await market?.stop();
    await prometheus.stop();
    try {
      await fleet.stop();
    } finally {
      await services.stop();
    }
  }, 120_000);

  it('scrapes every service, up and ready', async () => {
    expect(fleet.processes.map((entry) => entry.service).sort()).toEqual(
      ['budget', 'gateway', 'notifier', 'venue-sim', 'worker', 'worker'].sort(),
    );
    const targets = await until(async () => {
      const seen = await prometheus.targets();
      return seen.length === fleet.processes.length && seen.every((t) => t.health === 'up') && seen;
    }, 30_000);
    expect(targets.map((target) => target.job).sort()).toEqual(
      [
        'sts-budget',
        'sts-gateway',
        'sts-notifier',
        'sts-venue-sim',
        'sts-worker',
        'sts-worker',
      ].sort(),
    );
    for (const entry of fleet.processes) {
      expect([entry.id, (await fetch(`${entry.metricsUrl}/readyz`)).status]).toEqual([
        entry.id,
        200,
      ]);
      expect([entry.id, (await fetch(`${entry.metricsUrl}/livez`)).status]).toEqual([
        entry.id,
        200,
      ]);
    }
    // Event-loop delay from every process.
    expect(await prometheus.value('count(nodejs_eventloop_lag_p99_seconds)')).toBe(6);
  });

  it('shows the fills, hedges, latency histograms and a zero unhedged exposure at rest', async () => {
    const traders: Trader[] = [];
    const tradeIds: string[] = [];
    for (const pair of PAIRS) {
      const trader = await createTrader(fleet.operator, [pair.maker.venue, pair.hedge.venue]);
      traders.push(trader);
      const body = await api.must([202], 'POST', '/api/v1/trades', {
        headers: trader.headers,
        body: {
          market: 'BTC',
          long_wallet: trader.wallet,
          short_wallet: trader.wallet,
          target_spread: '-1000',
          spread_condition: 'gte',
          target_size: '0.05',
          execution_type: 'maker_taker',
          max_slippage: '0.001',
          quote_mode: 'aggressive',
          idempotency_key: idempotencyKey(),
          ...pair.body,
        },
      });
      tradeIds.push(body.trade_id as string);
    }
    const statuses = () =>
      query<{ status: string }>(`SELECT status FROM trades WHERE id = ANY($1)`, [tradeIds]);
    await until(async () => (await statuses()).every((row) => row.status === 'active'), 30_000);
    // While they run, the workers say they hold them.
    await until(async () => (await prometheus.value('sum(sts_worker_live_trades)')) === 2, 10_000);

    market = new MarketDriver(fleet.sim, SEED);
    market.start();
    const ended = await until(
      async () => (await statuses()).every((row) => TERMINAL.includes(row.status)),
      90_000,
    ).catch(() => false);
    await market.stop();
    if (!ended) {
      for (const [index, id] of tradeIds.entries()) {
        await api.must([202], 'DELETE', `/api/v1/trades/${id}`, {
          headers: traders[index].headers,
        });
      }
      await until(
        async () => (await statuses()).every((row) => TERMINAL.includes(row.status)),
        30_000,
      );
    }

    // Three scrapes after the last event, so Prometheus holds the final figures.
    await delay(3_500);
    const makerFills = await events('maker_fill');
    const hedgesSent = await events('hedge_sent');
    const hedgeFills = await events('hedge_filled');
    const hedgesFilled = await events('hedge_outcome', `data->>'result' = 'filled'`);
    console.log(
      `observability e2e: ${makerFills} maker fills, ${hedgesSent} hedges sent, ${hedgeFills} hedge fills, ${hedgesFilled} hedges filled in full (logs: ${LOG_DIR})`,
    );
    expect(makerFills).toBeGreaterThan(0);
    expect(hedgesSent).toBeGreaterThan(0);

    expect(await prometheus.value('sum(sts_worker_maker_fills_total)')).toBe(makerFills);
    expect(await prometheus.value('sum(sts_worker_hedges_sent_total)')).toBe(hedgesSent);
    expect(await prometheus.value('sum(sts_worker_hedges_filled_total)')).toBe(hedgeFills);
    // Every hedge IOC went through the counted venue client.
    expect(
      await prometheus.value('sum(sts_worker_venue_requests_total{operation="placeIoc"})'),
    ).toBe(hedgesSent);
    // Histograms: one observation per hedge filled in full; at most one fill-to-sent per hedge.
    expect(await prometheus.value('sum(sts_worker_maker_fill_to_hedge_filled_seconds_count)')).toBe(
      hedgesFilled,
    );
    const sentCount = await prometheus.value('sum(sts_worker_fill_to_hedge_sent_seconds_count)');
    expect(sentCount).toBeGreaterThan(0);
    expect(sentCount).toBeLessThanOrEqual(hedgesSent);
    expect(
      await prometheus.value('sum(sts_worker_fill_to_hedge_sent_seconds_bucket{le="+Inf"})'),
    ).toBe(sentCount);

    // At rest: the exposure gauge exists for both hedge venues and is zero; nothing held.
    const exposure = await prometheus.query('sts_worker_unhedged_size');
    expect(new Set(exposure.map((sample) => sample.metric['exchange']))).toEqual(
      new Set(PAIRS.map((pair) => pair.hedge.venue)),
    );
    expect(exposure.every((sample) => sample.value === 0)).toBe(true);
    expect(await prometheus.value('sum(sts_worker_live_trades)')).toBe(0);
    expect(await prometheus.value('sum(sts_worker_lease_acquisitions_total{kind="fresh"})')).toBe(
      2,
    );

    // The other services saw the same run.
    expect(
      await prometheus.value(
        'sum(sts_http_requests_total{method="POST",route="/api/v1/trades",status="202"})',
      ),
    ).toBe(2);
    expect(await prometheus.value('sum(sts_budget_reservations_total)')).toBeGreaterThanOrEqual(2);
    expect(
      await prometheus.value(`sum(sts_venue_sim_requests_total{venue="${PAIRS[0].hedge.venue}"})`),
    ).toBeGreaterThan(0);
    // The fleet's start-up waited on the notifier's readiness: counted by route and status.
    expect(
      await prometheus.value(
        'sum(sts_notifier_http_requests_total{route="/healthz",status="200"})',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(await prometheus.value('max(sts_outbox_pending)')).toBe(0);
    expect(await prometheus.value('max(sts_trades_unleased)')).toBe(0);

    // And the alert rules, evaluated on all of it, are quiet.
    expect((await prometheus.alerts()).filter((alert) => alert.state === 'firing')).toEqual([]);
  });
});
