import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Big from 'big.js';
import { Client } from 'pg';
import { Api, createTrader, idempotencyKey, type Trader } from './api';
import {
  checkPositions,
  checkTrade,
  SimRecords,
  TERMINAL,
  type TradeFigures,
  type TradeUnderTest,
  type Violation,
} from './checks';
import type { Fault } from './faults';
import { MarketDriver, PAIRS } from './market';
import { delay } from './processes';
import { table, violationLines, writeReport, type FaultResult, type MatrixReport } from './report';
import { LifecycleWatch } from './lifecycle-watch';
import { MakerOrderWatch } from './order-watch';
import { ApiTraffic, neverFilling } from './traffic';
import type { MatrixWorld } from './world';

const ROOT = resolve(__dirname, '../..');
const SEED = Number(process.env['VENUE_SIM_SEED'] ?? 20_261_123);
const TARGET_SIZE = '0.25';
/** Bounded waits: a fleet that has not recovered or wound down by then has a bug. */
const ACTIVE_WITHIN_MS = 20_000;
const FILLS_WITHIN_MS = 15_000;
const RECOVER_WITHIN_MS = 30_000;
const WIND_DOWN_WITHIN_MS = 20_000;
const STEADY_AFTER_MS = 1_000;

async function until<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) {
        return value;
      }
    } catch {
      // the dependency may be down: try again until the deadline
    }
    if (Date.now() > deadline) {
      return undefined;
    }
    await delay(intervalMs);
  }
}

/**
 * The wind-down's cancels and the checks of the trades after it, this many
 * trades at once: each reads (or cancels) one trade and its trader's own
 * accounts, nothing another one's check touches. One after another they took
 * 20-35 ms a trade, and a partition fault ends with up to 640 (its probers'
 * trades included).
 */
const TRADES_AT_ONCE = Number(process.env['FAULT_MATRIX_TRADES_AT_ONCE'] ?? 8);

/** `each` of every item, at most `limit` at once; the answers in the items' order. */
async function eachAtMost<T, R>(
  items: readonly T[],
  limit: number,
  each: (item: T) => Promise<R>,
): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      answers[index] = await each(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return answers;
}

/** A log line cut to what a reader of the report needs: time, level, message, error, request. */
function compact(line: string): string {
  try {
    const entry = JSON.parse(line);
    const parts = [entry.time, entry.level, entry.msg];
    if (entry.err) {
      parts.push(`${entry.err.type}: ${entry.err.message}`);
    }
    if (entry.req) {
      parts.push(`${entry.req.method} ${entry.req.url}`);
    }
    const rest = Object.fromEntries(
      Object.entries(entry).filter(
        ([key]) =>
          ![
            'time',
            'level',
            'msg',
            'err',
            'req',
            'service',
            'pid',
            'worker_id',
            'trade_id',
            'correlation_id',
          ].includes(key),
      ),
    );
    return `${parts.filter(Boolean).join(' ')} ${JSON.stringify(rest)}`.slice(0, 600);
  } catch {
    return line.slice(0, 600);
  }
}

const count = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);

export interface MatrixOptions {
  /** Names the report's folder under tmp/ (`fault-matrix`, `partitions`). */
  name: string;
  /** Fresh trades per pair of venues for each fault (4: eight trades). */
  tradesPerPair: number;
  /** Each fault is struck this many times on the same trades, each followed by its recovery (1). */
  strikes: number;
  /** Each trade's target size (0.25): big enough to stay live through every strike. */
  targetSize: string;
  /** Bound on the recovery once a fault is mended (30 s). */
  recoverWithinMs: number;
  /** Judge the notifier too: every trade's end reaches a socket opened before the fault. */
  lifecycle: boolean;
}

/**
 * The fault matrix: one fleet (its world: one host, or a lab of hosts); for
 * each fault, fresh trades filling on paper venues, API traffic throughout,
 * the fault, a bounded recovery, a wind-down and the checks against the
 * venues' own records.
 */
export class FaultMatrix<W extends MatrixWorld = MatrixWorld> {
  readonly run = new Date().toISOString().replace(/[:.]/g, '-');
  readonly logDir: string;
  readonly reportFile: string;
  readonly world: W;
  readonly options: MatrixOptions;
  api!: Api;
  sim!: SimRecords;
  private report!: MatrixReport;
  /** The last fault failed its checks or threw (the next one may find the world broken). */
  private faultFailed = false;
  private market!: MarketDriver;

  constructor(
    makeWorld: (logDir: string, seed: number) => W,
    options: Partial<MatrixOptions> = {},
  ) {
    this.options = {
      name: 'fault-matrix',
      tradesPerPair: 4,
      recoverWithinMs: RECOVER_WITHIN_MS,
      lifecycle: false,
      strikes: 1,
      targetSize: TARGET_SIZE,
      ...options,
    };
    this.logDir = join(ROOT, 'tmp', this.options.name, this.run);
    this.reportFile = join(ROOT, 'tmp', this.options.name, `report-${this.run}.json`);
    mkdirSync(this.logDir, { recursive: true });
    this.world = makeWorld(this.logDir, SEED);
  }

  async start(): Promise<void> {
    const started = Date.now();
    this.report = {
      run: this.run,
      startedAt: new Date().toISOString(),
      seed: SEED,
      logDir: this.logDir,
      setupMs: 0,
      results: [],
    };
    await this.world.start();
    this.api = new Api(() => this.world.gatewayUrl);
    this.sim = new SimRecords(this.world.simUrl);
    this.market = new MarketDriver(this.world.sim, SEED);
    this.report.setupMs = Date.now() - started;
  }

  async stop(): Promise<void> {
    await this.world.stop();
    if (this.report?.results.length) {
      console.log(
        `${this.options.name} (run ${this.run}, seed ${SEED}):\n${table(this.report.results)}\nreport: ${this.reportFile}`,
      );
    }
  }

  /** The outbox's backlog and what the world shows of the events' path past it. */
  private async diagnoseDelivery(): Promise<string> {
    const [backlog] = await this.query<{ pending: number; oldest_s: number | null }>(
      `SELECT count(*)::int AS pending,
              extract(epoch FROM now() - min(created_at))::int AS oldest_s
         FROM outbox WHERE published_at IS NULL`,
    );
    const world = (await this.world.diagnoseDelivery?.()) ?? '';
    return `outbox ${backlog.pending} unpublished (oldest ${backlog.oldest_s ?? '-'} s) ${world}`;
  }

  private async query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({
      connectionString: this.world.databaseUrl,
      connectionTimeoutMillis: 2000,
    });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private async createTrades(): Promise<Array<TradeUnderTest & { trader: Trader }>> {
    const plan = PAIRS.flatMap((pair) =>
      Array.from({ length: this.options.tradesPerPair }, () => pair),
    );
    return Promise.all(
      plan.map(async (pair) => {
        const trader = await createTrader(this.world.operator, [
          pair.maker.venue,
          pair.hedge.venue,
        ]);
        const body = await this.api.mustRetrying([202], 'POST', '/api/v1/trades', {
          headers: trader.headers,
          body: {
            market: 'BTC',
            long_wallet: trader.wallet,
            short_wallet: trader.wallet,
            target_spread: '-1000',
            spread_condition: 'gte',
            target_size: this.options.targetSize,
            execution_type: 'maker_taker',
            max_slippage: '0.001',
            quote_mode: 'aggressive',
            idempotency_key: idempotencyKey(),
            ...pair.body,
          },
        });
        return { tradeId: body.trade_id as string, trader, pair };
      }),
    );
  }

  private statuses(ids: string[]): Promise<Array<{ id: string; status: string }>> {
    return this.query(`SELECT id, status FROM trades WHERE id = ANY($1)`, [ids]);
  }

  private makerFillsSince(ids: string[], since: Date): Promise<number> {
    return this.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM trade_events WHERE trade_id = ANY($1) AND event_type = 'maker_fill' AND created_at > $2`,
      [ids, since],
    ).then((rows) => rows[0].n);
  }

  /** Warn and error lines of the fleet's logs that name `needle` (evidence for a violation). */
  logExcerpt(needle: string, max = 12): string[] {
    const lines: string[] = [];
    for (const entry of this.world.logs()) {
      if (!existsSync(entry.logFile)) {
        continue;
      }
      for (const line of readFileSync(entry.logFile, 'utf8').split('\n')) {
        if (!line.includes(needle) || !/"level":"(warn|error|fatal)"/.test(line)) {
          continue;
        }
        lines.push(`${entry.id}: ${compact(line)}`);
      }
    }
    return lines.slice(0, max);
  }

  private errorLinesBetween(service: string, from: number, to: number, max = 8): string[] {
    const lines: string[] = [];
    for (const entry of this.world.logs().filter((p) => p.service === service)) {
      if (!existsSync(entry.logFile)) {
        continue;
      }
      for (const line of readFileSync(entry.logFile, 'utf8').split('\n')) {
        const time = /"time":"([^"]+)"/.exec(line);
        const at = time ? Date.parse(time[1]) : NaN;
        if (!(at >= from && at <= to)) {
          continue;
        }
        if (/"level":"(error|fatal)"/.test(line)) {
          lines.push(`${entry.id}: ${compact(line)}`);
        }
      }
    }
    return lines.slice(0, max);
  }

  /**
   * One strike of the fault (of `strikes`): injected with traffic running,
   * then the bounded recovery; ms from mended to recovered, or null (a
   * `not_recovered` violation).
   */
  private async strike(
    fault: Fault<W>,
    strike: number,
    run: {
      trades: Array<TradeUnderTest & { trader: Trader }>;
      ids: string[];
      traffic: ApiTraffic;
      recoveryProbe: Trader;
      notes: string[];
      measured: Record<string, number[]>;
      violations: Violation[];
      recovery: FaultResult['recovery'];
    },
  ): Promise<number | null> {
    const { trades, ids, traffic, recoveryProbe, notes, measured, violations, recovery } = run;
    const market = this.market;
    const label = this.options.strikes > 1 ? `#${strike} ` : '';
    traffic.phase = 'fault';
    const injectedAt = Date.now();
    await fault.inject({
      world: this.world,
      sim: this.world.sim,
      market,
      trades,
      query: (sql, params) => this.query(sql, params),
      note: (text) => notes.push(`${label}${text}`),
      measure: (figure, ms) => {
        (measured[figure] ??= []).push(ms);
        notes.push(`${label}${figure} ${ms} ms`);
      },
    });
    const mendedAt = Date.now();
    notes.push(`${label}fault held ${mendedAt - injectedAt} ms`);
    traffic.phase = 'recovery';
    const mendedDate = new Date(mendedAt);
    let lastSeen: unknown;
    const recovered = await until(
      async () => {
        const health = await this.api.call('GET', '/healthz');
        const rows = await this.statuses(ids);
        const live = rows.filter((row) => !TERMINAL.has(row.status));
        const settled = rows.every((row) => ['active', ...TERMINAL].includes(row.status));
        const progressing = live.length === 0 || (await this.makerFillsSince(ids, mendedDate)) > 0;
        lastSeen = { health: health.status, statuses: rows.map((r) => r.status), progressing };
        const since = Date.now() - mendedAt;
        if (health.status === 200) {
          recovery.readyMs ??= since;
        }
        if (settled) {
          recovery.tradesSettledMs ??= since;
        }
        if (progressing) {
          recovery.fillingMs ??= since;
        }
        if (health.status !== 200 || !settled || !progressing) {
          return false;
        }
        // Last, a create is accepted again (and canceled at once, so the probe never meets its cap).
        const create = await this.api.call('POST', '/api/v1/trades', {
          headers: recoveryProbe.headers,
          body: { ...traffic.loadBody(recoveryProbe.wallet), idempotency_key: idempotencyKey() },
        });
        lastSeen = { ...(lastSeen as object), create: create.status, code: create.body?.code };
        if (create.status !== 202) {
          return false;
        }
        recovery.createAcceptedMs = Date.now() - mendedAt;
        traffic.created.push({ tradeId: create.body.trade_id, trader: recoveryProbe });
        await this.api.call('DELETE', `/api/v1/trades/${create.body.trade_id}`, {
          headers: recoveryProbe.headers,
        });
        return true;
      },
      this.options.recoverWithinMs,
      200,
    );
    if (recovered) {
      return Date.now() - mendedAt;
    }
    violations.push({
      invariant: 'not_recovered',
      detail: `${label}the fleet had not recovered ${this.options.recoverWithinMs} ms after the fault was mended (healthz 200, a create accepted, every trade active or terminal, maker fills again)`,
      evidence: { last_seen: lastSeen },
    });
    return null;
  }

  async runFault(fault: Fault<W>): Promise<FaultResult> {
    const started = Date.now();
    const notes: string[] = [];
    const violations: Violation[] = [];
    const measured: Record<string, number[]> = {};
    await this.world.beforeFault?.((text) => notes.push(text), this.faultFailed);
    // Until this fault's checks pass, the next one follows a failure.
    this.faultFailed = true;
    const trades = await this.createTrades();
    const ids = trades.map((t) => t.tradeId);
    const active = await until(async () => {
      const rows = await this.statuses(ids);
      return rows.length === ids.length && rows.every((row) => row.status === 'active')
        ? rows
        : undefined;
    }, ACTIVE_WITHIN_MS);
    if (!active) {
      const rows = await this.statuses(ids);
      throw new Error(
        `setup: trades not active within ${ACTIVE_WITHIN_MS} ms: ${JSON.stringify(rows)}`,
      );
    }

    const lifecycle = this.options.lifecycle
      ? new LifecycleWatch(this.world.notifierUrls, trades)
      : null;
    await lifecycle?.start();
    const [recoveryProbe, ...probers] = await Promise.all(
      [0, 1, 2].map(() => createTrader(this.world.operator, ['hyperliquid', 'paradex'])),
    );
    const traffic = new ApiTraffic(
      this.api,
      probers,
      () => trades,
      neverFilling,
      new Api(() => this.world.notifierUrl),
    );
    const market = this.market;
    const orderWatch = new MakerOrderWatch(this.sim, trades);
    const faultStart = Date.now();
    let recoverMs: number | null = 0;
    /** When each part of the recovery first held, ms after the fault was mended. */
    const recovery: FaultResult['recovery'] = {};
    try {
      traffic.start();
      market.start();
      orderWatch.start();
      const filling = await until(
        async () => (await this.makerFillsSince(ids, new Date(0))) >= 3,
        FILLS_WITHIN_MS,
        200,
      );
      if (!filling) {
        throw new Error(`setup: fewer than 3 maker fills within ${FILLS_WITHIN_MS} ms`);
      }

      for (let strike = 1; strike <= this.options.strikes; strike += 1) {
        const recovered = await this.strike(fault, strike, {
          trades,
          ids,
          traffic,
          recoveryProbe,
          notes,
          measured,
          violations,
          recovery,
        });
        recoverMs =
          recovered === null || recoverMs === null ? null : Math.max(recoverMs, recovered);
      }
      traffic.phase = 'after';
      await delay(STEADY_AFTER_MS);
    } finally {
      await market.stop();
      await traffic.stop();
      violations.push(...(await orderWatch.stop()));
      if (!orderWatch.supported) {
        notes.push('the simulator has no open-orders read-out: two_open_maker_orders not checked');
      }
    }

    // Wind down: cancel everything still live and wait for every trade to end.
    const everyTrade: TradeUnderTest[] = [...trades, ...traffic.created];
    const everyId = everyTrade.map((t) => t.tradeId);
    const windDownAt = Date.now();
    await eachAtMost(everyTrade, TRADES_AT_ONCE, (trade) =>
      this.api.call('DELETE', `/api/v1/trades/${trade.tradeId}`, {
        headers: trade.trader.headers,
      }),
    );
    await until(
      async () => {
        const rows = await this.statuses(everyId);
        return rows.every((row) => TERMINAL.has(row.status));
      },
      WIND_DOWN_WITHIN_MS,
      200,
    );
    const woundDownMs = Date.now() - windDownAt;

    if (lifecycle) {
      violations.push(
        ...(await lifecycle.stop(
          async (trade) => (await this.statuses([trade.tradeId]))[0]?.status ?? 'unknown',
          () => this.diagnoseDelivery(),
        )),
      );
      notes.push(lifecycle.summary());
    }

    // The checks: the API's log and figures against the venues' own records (each
    // trade's violations kept apart, then listed in the trades' order).
    const checksAt = Date.now();
    const checked = await eachAtMost(everyTrade, TRADES_AT_ONCE, async (trade) => {
      const own: Violation[] = [];
      return { figure: await checkTrade(this.api, this.sim, trade, own), own };
    });
    const figures: TradeFigures[] = checked.map(({ figure }) => figure);
    violations.push(...checked.flatMap(({ own }) => own));
    notes.push(
      `${everyTrade.length} trades canceled and ended in ${woundDownMs} ms, checked in ${Date.now() - checksAt} ms`,
    );
    for (const trade of trades) {
      const own = figures.filter((f) => f.tradeId === trade.tradeId);
      // A failed trade names its unhedged size twice (hedge_timeout, chunk_completed's
      // residual); what a trade unwound on the maker venue leaves the wallet flat.
      const allowance = own.reduce((sum, f) => {
        const left = new Big(f.residualUnhedged).minus(f.residualUnwound);
        return sum.plus(new Big(f.namedUnhedged).gt(left) ? f.namedUnhedged : left);
      }, new Big(0));
      await checkPositions(this.sim, trade.trader.wallet, trade.pair!, allowance, violations);
    }
    for (const violation of violations) {
      if (violation.tradeId) {
        violation.evidence = {
          ...violation.evidence,
          worker_log: this.logExcerpt(violation.tradeId),
        };
      }
    }

    // The API during the fault: every answer judged, first against its description.
    for (const problem of new Set(this.api.descriptionProblems.splice(0))) {
      violations.push({ invariant: 'api_undescribed_answer', detail: problem });
    }
    const wrong = new Map<string, { count: number; examples: unknown[] }>();
    for (const record of traffic.records) {
      if (!record.wrong) {
        continue;
      }
      const key = `${record.kind} ${record.phase}: ${record.wrong.slice(0, 120)}`;
      const entry = wrong.get(key) ?? { count: 0, examples: [] };
      entry.count += 1;
      if (entry.examples.length < 2) {
        entry.examples.push(record.body);
      }
      wrong.set(key, entry);
    }
    for (const [key, { count: times, examples }] of wrong) {
      violations.push({
        invariant: 'api_wrong_answer',
        detail: `${times}x ${key}`,
        evidence: {
          examples,
          gateway_errors: this.errorLinesBetween('gateway', faultStart, Date.now()),
        },
      });
    }

    // A readiness probe that kept saying 200 while its own dependency was down is blind.
    if (fault.name === 'postgres' || fault.name === 'nats') {
      for (const kind of ['gateway-ready', 'notifier-ready'] as const) {
        const during = traffic.records.filter((r) => r.kind === kind && r.phase === 'fault');
        if (during.length > 0 && !during.some((r) => r.status === 503)) {
          violations.push({
            invariant: 'readiness_blind',
            detail: `${kind} answered ${during.length} times while ${fault.name} was down, never 503`,
            evidence: { statuses: during.map((r) => r.status) },
          });
        }
      }
    }
    const codesDuringFault: Record<string, number> = {};
    const codesByKind: Record<string, Record<string, number>> = {};
    for (const record of traffic.records) {
      const code = `${record.status}${record.code ? ` ${record.code}` : ''}`;
      if (record.phase === 'fault' || record.phase === 'recovery') {
        count(codesDuringFault, code);
      }
      codesByKind[record.kind] ??= {};
      count(codesByKind[record.kind], code);
    }
    const finalStatuses: Record<string, number> = {};
    for (const f of figures.slice(0, trades.length)) {
      count(finalStatuses, f.status);
    }
    const faultFigures = figures.slice(0, trades.length);
    const result: FaultResult = {
      fault: fault.name,
      what: fault.what,
      notes,
      trades: trades.length,
      proberTrades: traffic.created.length,
      makerFills: faultFigures.reduce((n, f) => n + f.makerFills, 0),
      makerSize: faultFigures.reduce((s, f) => s.plus(f.makerSize), new Big(0)).toFixed(),
      hedgeFills: faultFigures.reduce((n, f) => n + f.hedgeFills, 0),
      hedgeSize: faultFigures.reduce((s, f) => s.plus(f.hedgeSize), new Big(0)).toFixed(),
      takerTrades: market.takerTrades,
      finalStatuses,
      codesDuringFault,
      codesByKind,
      hangs: traffic.records.filter((r) => r.status === 'hang').length,
      slowestMs: Math.max(
        0,
        ...traffic.records.filter((r) => r.phase !== 'before').map((r) => r.ms),
      ),
      apiCalls: traffic.records.length,
      recoverMs,
      recovery,
      unhedgedPeak: faultFigures
        .reduce(
          (peak, f) => (new Big(f.unhedgedPeak ?? 0).gt(peak) ? new Big(f.unhedgedPeak!) : peak),
          new Big(0),
        )
        .toFixed(),
      unhedgedLongestMs: Math.max(0, ...faultFigures.map((f) => f.unhedgedLongestMs ?? 0)),
      measured,
      durationMs: Date.now() - started,
      violations,
      tradeFigures: figures,
    };
    this.faultFailed = violations.length > 0;
    this.report.results.push(result);
    writeReport(this.reportFile, this.report);
    console.log(`${table([result])}\n${violationLines(result).join('\n') || 'no violations'}`);
    return result;
  }
}
