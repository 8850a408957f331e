import Big from 'big.js';
import { eventually } from './eventually';
import type { SimFill } from './venue-sim-control';
import { SHORT_LEASE, WorkerHarness, type Trader } from './worker-harness';
import { tradeLines } from './worker-logs';
import { sleep } from '@sts/platform';

jest.setTimeout(180_000);

const TRADES_PER_PAIR = 25;
const SIZE_STEP = new Big('0.005');

/** Two venue pairs, so both workers quote bids and asks and hedge both ways. */
const PAIRS = [
  {
    venues: ['hyperliquid', 'paradex'],
    /**
     * A maker bid: a jump up re-prices it. (A jump down would make the house
     * trade through every resting bid and end on a partial fill of any size,
     * which the hedge venue's lot may not be able to hedge: residual_unhedged.)
     */
    maker: { venue: 'hyperliquid', symbol: 'BTC', takerSide: 'sell' as const, safeJump: 1 },
    hedge: 'paradex',
    body: { long_exchange: 'hyperliquid', short_exchange: 'paradex', maker_leg: 'long' },
  },
  {
    venues: ['aster', 'lighter'],
    maker: { venue: 'lighter', symbol: 'BTC', takerSide: 'buy' as const, safeJump: -1 },
    hedge: 'aster',
    body: { long_exchange: 'aster', short_exchange: 'lighter', maker_leg: 'short' },
  },
];

interface ChaosTrade {
  tradeId: string;
  trader: Trader;
  pair: (typeof PAIRS)[number];
}

/** A small seeded generator: the market moves the same way on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

async function inBatches<T, R>(
  items: T[],
  size: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  }
  return results;
}

/**
 * Once a trade's venues disagree (seen once, on a loaded CI machine: 0.115
 * made, 0.045 hedged, after a takeover that re-hedged nothing; most likely a
 * hedge dropped while a held-up renewal left the lease untrusted, now deferred
 * instead: lease-trust-lapse.e2e.spec.ts), what the next such run must show:
 * both venues' fills, the trade's own log and every worker line about it, so
 * the race can be rebuilt with the simulator's fault controls.
 */
async function explainUnhedged(
  harness: WorkerHarness,
  trade: ChaosTrade,
  maker: SimFill[],
  hedge: SimFill[],
): Promise<void> {
  const log = await harness.gateway.query<{ sequence: number; event_type: string; data: object }>(
    `SELECT sequence, event_type, data FROM trade_events WHERE trade_id = $1 ORDER BY sequence`,
    [trade.tradeId],
  );
  console.log(
    [
      `trade ${trade.tradeId}: venues disagree`,
      `maker fills (${trade.pair.maker.venue}): ${JSON.stringify(maker)}`,
      `hedge fills (${trade.pair.hedge}): ${JSON.stringify(hedge)}`,
      ...log.map((row) => `${row.sequence} ${row.event_type} ${JSON.stringify(row.data)}`),
      'worker log lines of the trade:',
      ...tradeLines(harness.logDir, trade.tradeId),
    ].join('\n'),
  );
}

describe('chaos: 2 worker processes, 50 live trades, kill -9 of one mid-run', () => {
  const harness = new WorkerHarness();

  // The victim's trades pass 2 s after its last renewal: the takeover is part of the run.
  beforeAll(async () => {
    await harness.start({ workers: 0, env: SHORT_LEASE });
  });

  afterAll(() => harness.stop());

  it('leaves every trade terminal, every log gapless, and every maker fill hedged on the venues', async () => {
    const victim = await harness.spawnWorker();
    const survivor = await harness.spawnWorker();
    const plan = PAIRS.flatMap((pair) => Array.from({ length: TRADES_PER_PAIR }, () => pair));
    const trades: ChaosTrade[] = await inBatches(plan, 10, async (pair) => {
      const trader = await harness.trader(pair.venues);
      const tradeId = await harness.createTrade(trader, {
        ...pair.body,
        target_size: '0.3',
        target_spread: '-1000',
        quote_mode: 'aggressive',
      });
      return { tradeId, trader, pair };
    });
    await inBatches(trades, 10, (t) =>
      harness.waitForStatus(t.trader, t.tradeId, 'active', 30_000),
    );

    // The market: outside takers (multiples of 0.005, so every maker fill stays hedgeable)
    // and venue jumps that make the house trade through resting orders.
    const random = seeded(20_260_101);
    let driving = true;
    const driver = (async () => {
      while (driving) {
        const pair = PAIRS[Math.floor(random() * PAIRS.length)];
        if (random() < 0.65) {
          const size = SIZE_STEP.times(1 + Math.floor(random() * 8)).toFixed();
          await harness.sim.trade(pair.maker.venue, pair.maker.symbol, pair.maker.takerSide, size);
        } else if (random() < 0.5) {
          await harness.sim.jumpVenue(pair.hedge, Math.round((random() - 0.5) * 6));
        } else {
          await harness.sim.jumpVenue(pair.maker.venue, pair.maker.safeJump * 2);
        }
        await sleep(40);
      }
    })();

    const logsBy = async (workerId: string): Promise<number> => {
      const [row] = await harness.gateway.query(
        `SELECT count(*)::int AS n FROM trade_events WHERE worker_id = $1 AND event_type = 'maker_fill'`,
        [workerId],
      );
      return row.n;
    };
    await eventually(
      async () => (await logsBy(victim.workerId)) >= 5,
      'the victim to have hedged fills',
      {
        timeoutMs: 30_000,
      },
    );
    await victim.kill();
    const killedAt = Date.now();
    const orphaned = await harness.gateway.query<{ id: string }>(
      `SELECT id FROM trades WHERE lease_owner = $1 AND status IN ('validating', 'active', 'paused', 'recovering')`,
      [victim.workerId],
    );
    expect(orphaned.length).toBeGreaterThan(0);
    await eventually(
      async () => {
        const rows = await harness.gateway.query(
          `SELECT count(DISTINCT trade_id)::int AS n FROM trade_events
           WHERE trade_id = ANY($1) AND event_type = 'recovery_completed' AND worker_id = $2`,
          [orphaned.map((row) => row.id), survivor.workerId],
        );
        return rows[0].n === orphaned.length;
      },
      'the survivor to recover every orphaned trade',
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    const takeoverMs = Date.now() - killedAt;
    await sleep(4_000);
    driving = false;
    await driver;

    // Wind down: cancel whatever is still live and wait for every trade to end.
    await inBatches(trades, 10, async (t) => {
      await harness.gateway.request('DELETE', `/api/v1/trades/${t.tradeId}`, {
        headers: t.trader.headers,
      });
    });
    const ended = await eventually(
      async () => {
        const rows = await harness.gateway.query<{
          id: string;
          status: string;
          filled_size: string;
        }>(`SELECT id, status, filled_size::text FROM trades WHERE id = ANY($1)`, [
          trades.map((t) => t.tradeId),
        ]);
        return rows.every((row) => ['completed', 'canceled'].includes(row.status))
          ? rows
          : undefined;
      },
      'every trade to end completed or canceled',
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    const byId = new Map(ended.map((row) => [row.id, row]));

    // The log: per trade, sequences 1..n with no gap and no duplicate.
    const sequences = await harness.gateway.query<{
      trade_id: string;
      sequences: number[];
      last: number;
    }>(
      `SELECT t.id AS trade_id, t.last_sequence AS last,
              COALESCE(array_agg(e.sequence ORDER BY e.sequence) FILTER (WHERE e.sequence IS NOT NULL), '{}') AS sequences
       FROM trades t LEFT JOIN trade_events e ON e.trade_id = t.id
       WHERE t.id = ANY($1) GROUP BY t.id`,
      [trades.map((t) => t.tradeId)],
    );
    for (const row of sequences) {
      expect(row.sequences).toEqual(Array.from({ length: row.last }, (_, i) => i + 1));
    }
    const recoveries = await harness.gateway.query<{ trade_id: string; data: any }>(
      `SELECT trade_id, data FROM trade_events WHERE event_type = 'recovery_completed'`,
    );
    expect(new Set(recoveries.map((row) => row.trade_id))).toEqual(
      new Set(orphaned.map((row) => row.id)),
    );
    expect(recoveries.every((row) => row.data.previous_worker_id === victim.workerId)).toBe(true);

    // The venues' own fills: for every trade, the hedge account traded exactly what the maker account did.
    let makerTotal = new Big(0);
    let rehedged = new Big(0);
    for (const trade of trades) {
      const wallet = trade.trader.wallet;
      const maker = await harness.sim.fillsOf(trade.pair.maker.venue, wallet);
      const hedge = await harness.sim.fillsOf(trade.pair.hedge, wallet);
      const made = maker.reduce((sum, fill) => sum.plus(fill.size), new Big(0));
      const hedged = hedge.reduce((sum, fill) => sum.plus(fill.size), new Big(0));
      if (!hedged.eq(made)) {
        await explainUnhedged(harness, trade, maker, hedge);
      }
      expect({ trade: trade.tradeId, hedged: hedged.toFixed() }).toEqual({
        trade: trade.tradeId,
        hedged: made.toFixed(),
      });
      expect(byId.get(trade.tradeId)!.filled_size).toBe(made.toFixed());
      makerTotal = makerTotal.plus(made);
    }
    for (const row of recoveries) {
      rehedged = rehedged.plus(row.data.rehedged_size);
    }
    expect(makerTotal.gt(0)).toBe(true);
    console.log(
      `chaos: ${trades.length} trades, ${orphaned.length} taken over in ${takeoverMs} ms, ` +
        `maker fills ${makerTotal.toFixed()} BTC, re-hedged at recovery ${rehedged.toFixed()} BTC, ` +
        `completed ${ended.filter((r) => r.status === 'completed').length}`,
    );
  });
});
