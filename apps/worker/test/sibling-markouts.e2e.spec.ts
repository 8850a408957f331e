import Big from 'big.js';
import { isTerminalTradeStatus, isTradeStatus } from '@sts/domain';
import { sleep } from '@sts/platform';
import { eventually } from './eventually';
import { WorkerHarness, type TradeEventView, type Trader } from './worker-harness';

/**
 * How long the trades quote, in seconds: 20 in CI. `MARKOUT_FLOW_S=300` runs
 * the flow long enough to tell informed takers from random ones (a 10 s
 * markout has one independent sample per 10 s of path), and then asserts it.
 */
const QUOTED_S = Number(process.env['MARKOUT_FLOW_S'] ?? 20);
/** From this long on, the informed venue's 10 s markout must stand apart from the random one's. */
const TELLS_FLOWS_APART_S = 180;
/**
 * How the trades quote: CI's short run a tick from crossing, so each trade's
 * order is alone at the best and the others' touch must leave it out; the
 * flow run as a trade quotes by default, joining the others' touch (a quote a
 * tick from crossing is run over by every down-tick, so its fills tell little
 * of who the takers are).
 */
const QUOTING = QUOTED_S >= TELLS_FLOWS_APART_S ? {} : { quote_mode: 'aggressive' };

jest.setTimeout(240_000 + QUOTED_S * 1000);

/** Takers that trade ahead of the fair price's next 10 s, and takers that toss a coin. */
const INFORMED = 'hyperliquid';
const RANDOM = 'lighter';
const HEDGE = 'paradex';
const TICKS: Readonly<Record<string, Big>> = { hyperliquid: new Big(1), lighter: new Big('0.1') };
/** Each trade's target: one outside taker's fill takes it whole, most of the time. */
const TRADE_SIZE = '0.02';
const ended = (status: string): boolean => isTradeStatus(status) && isTerminalTradeStatus(status);
/** One simulated step per 100 ms of the spec's clock: the simulator's time runs as the worker's. */
const STEP_MS = 100;
const QUOTED_MS = QUOTED_S * 1000;
/** Steps go on after the trades end, so the last fills' 10 s marks see the market move. */
const MARKED_MS = 11_000;

/** The simulator's own mid of each maker venue's BTC (its mark price), after one step. */
interface SimMark {
  /** When the step was asked for, and when its mids had been read: the step fell between. */
  steppedMs: number;
  atMs: number;
  mids: Record<string, Big>;
}

interface MarkoutEntry {
  tradeId: string;
  createdAtMs: number;
  horizon: number;
  mid: Big;
}

/**
 * Markouts among the account's own orders, through the API on the simulator:
 * one small trade after another quotes a tick from crossing on each of two
 * venues (informed takers on one, random ones on the other), so each fill's
 * marks are taken while a sibling trade's order rests on the same book. Every
 * mark's mid must be the simulator's own mid of the moment within a tick:
 * the account's orders, whichever trade placed them, are not the market.
 * The per-venue markouts GET /quality reports are printed; over CI's 20 s
 * run they follow the price path more than the flow; a run of minutes
 * (MARKOUT_FLOW_S) tells the informed venue from the random one, and asserts
 * it (issue 60).
 */
describe("markouts among the account's own orders", () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
    await harness.sim.setTakerFlow(INFORMED, {
      informed_taker_share: 1,
      informed_horizon_ms: 10_000,
    });
    await harness.sim.setTakerFlow(RANDOM, { informed_taker_share: 0 });
  });

  afterAll(async () => {
    await harness.sim.setTakerFlow(INFORMED, { informed_taker_share: 0 });
    await harness.stop();
  });

  const markOf = async (venue: string): Promise<Big> => {
    const response = await fetch(`${harness.sim.url}/venues/${venue}/markets`);
    const { markets } = (await response.json()) as {
      markets: Array<{ symbol: string; mark_price: string }>;
    };
    return new Big(markets.find((market) => market.symbol === 'BTC')!.mark_price);
  };

  /** Steps the simulator until `untilMs`, recording each maker venue's mid after each step. */
  const stepUntil = async (untilMs: number, marks: SimMark[]): Promise<void> => {
    while (Date.now() < untilMs) {
      const started = Date.now();
      await harness.sim.step(1);
      const [informed, random] = await Promise.all([markOf(INFORMED), markOf(RANDOM)]);
      marks.push({
        steppedMs: started,
        atMs: Date.now(),
        mids: { [INFORMED]: informed, [RANDOM]: random },
      });
      await sleep(Math.max(0, STEP_MS - (Date.now() - started)));
    }
  };

  /**
   * Keeps one small long-maker trade quoting on `venue` until `untilMs`: a
   * bid (QUOTING), hedged on paradex, started again as each one
   * fills. Small, so the house's quotes that trade through it when the price
   * falls take little of the house's level and the others' touch stays the
   * simulator's; one at a time, so no trade's order is "the others" to
   * another's. Returns the trades, each with its venue.
   */
  const keepQuoting = async (
    trader: Trader,
    venue: string,
    untilMs: number,
    trades: Map<string, string>,
  ): Promise<void> => {
    while (Date.now() < untilMs) {
      const id = await harness.createTrade(trader, {
        long_exchange: venue,
        short_exchange: HEDGE,
        maker_leg: 'long',
        ...QUOTING,
        fast_move_guard: 'off',
        target_spread: '-1000',
        target_size: TRADE_SIZE,
        max_slippage: '0.01',
      });
      trades.set(id, venue);
      while (Date.now() < untilMs && !ended((await harness.trade(trader, id)).status)) {
        await sleep(50);
      }
      await endTrade(trader, id);
    }
  };

  /** Cancels a trade unless it ended first, and waits for it to end either way. */
  const endTrade = async (trader: Trader, tradeId: string): Promise<void> => {
    if (ended((await harness.trade(trader, tradeId)).status)) {
      return;
    }
    await harness.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
    });
    await eventually(
      async () => ended((await harness.trade(trader, tradeId)).status),
      `trade ${tradeId} ended`,
    );
  };

  const markoutsOf = (tradeId: string, events: TradeEventView[]): MarkoutEntry[] =>
    events
      .filter((event) => event.event_type === 'markout')
      .map((event) => ({
        tradeId,
        createdAtMs: Date.parse(event.created_at),
        horizon: event.data['horizon_s'] as number,
        mid: new Big(event.data['mid'] as string),
      }));

  it("every mark is the simulator's own mid within a tick while sibling trades quote", async () => {
    const trader = await harness.trader([INFORMED, RANDOM, HEDGE]);
    const from = new Date().toISOString();
    const marks: SimMark[] = [];
    const trades = new Map<string, string>();
    const quotedUntil = Date.now() + QUOTED_MS;
    const quoting = Promise.all(
      [INFORMED, RANDOM].map((venue) => keepQuoting(trader, venue, quotedUntil, trades)),
    );
    await stepUntil(quotedUntil, marks);
    await quoting;
    await stepUntil(Date.now() + MARKED_MS, marks);

    // Every maker fill has its 10 s mark (taken while the steps went on).
    const logs = new Map<string, TradeEventView[]>();
    await eventually(async () => {
      for (const id of trades.keys()) {
        logs.set(id, await harness.events(trader, id));
      }
      return [...logs.values()].every(
        (events) =>
          events.filter((e) => e.event_type === 'maker_fill').length ===
          events.filter((e) => e.event_type === 'markout' && e.data['horizon_s'] === 10).length,
      );
    }, 'every maker fill marked out at 10 s');

    // Each mark is the simulator's own mid at that moment, within one tick of the venue.
    const off: string[] = [];
    let checked = 0;
    for (const [id, events] of logs) {
      const venue = trades.get(id)!;
      for (const markout of markoutsOf(id, events)) {
        // The steps that may have set the book the mark was read from (just before it was
        // logged): the last one read well before, and any asked for before it was logged.
        const settled = marks.filter((mark) => mark.atMs < markout.createdAtMs - 300).pop();
        const then = [
          ...(settled ? [settled] : []),
          ...marks.filter(
            (mark) =>
              mark.steppedMs <= markout.createdAtMs && mark.atMs >= markout.createdAtMs - 300,
          ),
        ];
        const nearest = then
          .map((mark) => mark.mids[venue].minus(markout.mid).abs())
          .sort((a, b) => a.cmp(b))[0];
        checked += 1;
        if (!nearest?.lte(TICKS[venue])) {
          off.push(
            `${venue} ${markout.horizon} s mid ${markout.mid} at ${markout.createdAtMs}: simulator ${then.map((mark) => `${mark.mids[venue]}@${mark.atMs}`).join(' ')}`,
          );
        }
      }
    }
    // A sibling trade's order placed a moment before its first stream update is not yet known
    // as the account's: a mark taken then may be off; at most one in a hundred.
    console.log(
      `markout mids within one tick of the simulator's: ${checked - off.length} of ${checked}`,
      off,
    );
    expect(off.length).toBeLessThanOrEqual(Math.floor(checked / 100));

    const report = await harness.gateway.request(
      'GET',
      `/api/v1/quality?group_by=venue&from=${from}&to=${new Date().toISOString()}`,
      { headers: trader.headers },
    );
    expect(report.status).toBe(200);
    const rows = new Map<string, QualityRow>(
      (report.body.groups as QualityRow[]).map((row) => [row.group, row]),
    );
    const informed = rows.get(INFORMED)!;
    const random = rows.get(RANDOM)!;
    console.log(
      [
        `maker markouts on BTC through GET /api/v1/quality, ${QUOTED_S} s quoted ${QUOTED_S >= TELLS_FLOWS_APART_S ? 'at the touch' : 'a tick from crossing'}`,
        ...[informed, random].map(describeRow),
      ].join('\n'),
    );
    const tenSecondMarks = [...logs.values()].flatMap((events) =>
      events.filter((e) => e.event_type === 'markout' && e.data['horizon_s'] === 10),
    );
    expect(informed.fills + random.fills).toBe(tenSecondMarks.length);
    if (QUOTED_S >= TELLS_FLOWS_APART_S) {
      // Picked off ahead of each move against it on the informed venue; not on the random one.
      const [informed10, random10] = [informed, random].map((row) =>
        Number(row.markout_bps['10'].mean),
      );
      expect(informed10).toBeLessThan(0);
      expect(informed10).toBeLessThan(random10 - 1);
    }
  });
});

interface QualityRow {
  group: string;
  fills: number;
  markout_bps: Record<
    '1' | '10' | '60',
    { count: number; mean: string | null; p50: string | null }
  >;
  quoting: { quoted_ms: number; fills_per_quote_hour: string | null };
}

const describeRow = (row: QualityRow): string =>
  `venue=${row.group} share=${row.group === INFORMED ? 1 : 0} fills=${row.fills} ` +
  (['1', '10'] as const)
    .map(
      (horizon) =>
        `markout_${horizon}s: n=${row.markout_bps[horizon].count} mean=${row.markout_bps[horizon].mean} p50=${row.markout_bps[horizon].p50}`,
    )
    .join(' ') +
  ` quoted=${(row.quoting.quoted_ms / 1000).toFixed(1)} s fills/quote-hour=${row.quoting.fills_per_quote_hour}`;
