/**
 * Trades per egress (issue 61): how many live trades a venue's per-IP limit
 * admits on one egress address and on three, and what each address then
 * sends as the venue's dialect counts it.
 *
 *   node tools/build.mjs && node dist/bench/egress-capacity.bench.js
 *     [--venues hyperliquid,aster,paradex,extended] [--seconds 20] [--egresses 1,3] [--workers 1]
 *     [--per-wallet 1]
 *
 * For each egress count it starts its own database, venue simulator, budget
 * service, gateway and workers as separate processes, with the venues under
 * test and the hedge venue live (ccxt against the simulator's dialects) and
 * `EGRESS_PLAN` naming 127.0.0.2, .3 and .4 (Linux routes all of 127/8 to
 * the loopback, so each is an address of its own to the dialect). Then, one
 * venue at a time, it creates trades, `--per-wallet` by each trader (maker on
 * the venue, hedge on Lighter), until the gateway has refused a create with
 * 429 rate_budget_exhausted on every egress; lets the admitted trades quote
 * for `seconds`; prints the trades admitted per egress and what the dialect's
 * per-IP pools counted per source address (`ip:<address>`), refusals
 * included; and cancels them before the next venue. Asserts nothing. The
 * venues' per-IP windows are a minute: a run of `seconds` shorter than that
 * cannot fill one, so an overspend shows only from about 60 s
 * (docs/perf/budget.md, "Trades per egress").
 *
 * The hedge venue is Lighter because it has no per-IP limit: its hedge
 * shares take nothing from the venue under test, whose pools then count the
 * venue's own trades alone. Lighter is not a venue under test for the same
 * reason.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { egressOf, type EgressPlan, type VenueId } from '@sts/domain';
import { lighterTestSignerFiles, SimControl } from '@sts/app-venue-sim';
import { loadEgressPlan, loadVenueRegistry, sleep } from '@sts/platform';
import { createTestDatabase, testNamespace } from '@sts/testing';
import { builtApp, freePort, restingTradeBody, waitFor, type PaperTrader } from './fleet-kit';
import { seedLiveTrader } from './live-trader';
import { machineLoad } from './process-cpu';
import { numberArg, runBench, stringArg } from './run-bench';

const VENUES = (stringArg('venues') ?? 'hyperliquid,aster,paradex,extended').split(',');
const SECONDS = numberArg('seconds', 20);
const EGRESS_COUNTS = (stringArg('egresses') ?? '1,3').split(',').map(Number);
const WORKERS = numberArg('workers', 1);
/**
 * Trades each trader opens on its wallet (Hyperliquid's maker cap is 2): two
 * trades of one account re-quote on the same book moves, and their orders
 * go together in one batched action where the venue takes batches.
 */
const PER_WALLET = numberArg('per-wallet', 1);
const HEDGE = 'lighter';
/** Three loopback addresses, none the bench's own (127.0.0.1), so the dialect tells them apart. */
const BINDS = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
/** Creates a phase may try per egress before it stops waiting for every egress to refuse one. */
const CREATES_PER_EGRESS = 60;
/** How long an admitted trade may take to reach `active` (its first sessions open on a busy machine). */
const ACTIVE_WITHIN_MS = 60_000;

/** A running fleet: where to reach it and how to stop it. */
interface Fleet {
  base: string;
  simUrl: string;
  env: Record<string, string>;
  plan: EgressPlan;
  /** Each worker's metrics page. */
  workerMetrics: string[];
  stop(): Promise<void>;
}

/** A trade the gateway admitted: its trader, id and egress. */
interface Admitted {
  trader: PaperTrader;
  tradeId: string;
  egress: string;
}

/** A create the gateway refused with 429 rate_budget_exhausted: the trader's egress and the answer. */
interface Refused {
  egress: string;
  answer: string;
}

/** What one ip key of a dialect's per-IP pools counted. */
interface IpCount {
  pool: string;
  key: string;
  admitted: number;
  refused: number;
  maxWindow: number;
  capacity: number;
  windowMs: number;
  /** Admitted weight and refusals by request kind, as the dialect counted them. */
  byKind: Record<string, { admitted_weight: number; refused: number }>;
}

/** `{"egresses":[{"id":"a","bind":"127.0.0.2"},…]}` of the first `count` addresses. */
const planJson = (count: number): string =>
  JSON.stringify({
    egresses: BINDS.slice(0, count).map((bind, index) => ({ id: 'abc'[index], bind })),
  });

/** The settings every process of the fleet shares: live venues on the dialects, the egress plan. */
function fleetEnv(database: string, simPort: number, gatewayPort: number, plan: string) {
  const namespace = testNamespace();
  const simUrl = `http://127.0.0.1:${simPort}`;
  const signer = lighterTestSignerFiles();
  const live = [...VENUES, HEDGE].flatMap((venue) => [
    [`VENUE_${venue.toUpperCase()}_MODE`, 'live'],
    [`VENUE_${venue.toUpperCase()}_ENDPOINT`, `${simUrl}/dialects/${venue}`],
  ]);
  return {
    ...(process.env as Record<string, string>),
    DATABASE_URL: database,
    NATS_PREFIX: namespace.natsPrefix,
    REDIS_PREFIX: namespace.redisPrefix,
    CREDENTIALS_KEK: randomBytes(32).toString('base64'),
    WEBHOOK_SECRETS_KEK: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    VENUE_SIM_PORT: String(simPort),
    VENUE_SIM_URL: simUrl,
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_RATE_LIMIT_PER_S: '1000000',
    EGRESS_PLAN: plan,
    // Lighter live: the tests' stand-in for the signer library a deployment provides.
    LIGHTER_SIGNER_WASM: signer.libraryPath,
    LIGHTER_WASM_EXEC_JS: signer.wasmExecPath,
    ...Object.fromEntries(live),
  };
}

/** Simulator, budget service, gateway and workers, each a process logging to `logs`. */
async function startFleet(egresses: number, logs: string): Promise<Fleet> {
  const database = await createTestDatabase();
  const [simPort, gatewayPort, metricsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const plan = planJson(egresses);
  const env = {
    ...fleetEnv(database.url, simPort, gatewayPort, plan),
    GATEWAY_METRICS_PORT: String(metricsPort),
  };
  const children: ChildProcess[] = [];
  const run = (script: string, name: string, extraEnv: Record<string, string> = {}) => {
    const logFile = join(logs, `${egresses}-egress-${name}.log`);
    const child = spawn('node', [script], {
      env: { ...env, LOG_FILE: logFile, ...extraEnv },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
  };
  const fleet: Fleet = {
    base: `http://127.0.0.1:${gatewayPort}`,
    simUrl: env.VENUE_SIM_URL,
    env,
    plan: loadEgressPlan({ EGRESS_PLAN: plan }),
    workerMetrics: [],
    stop: async () => {
      for (const child of children) {
        child.kill('SIGTERM');
      }
      await sleep(1_000);
      await database.drop();
    },
  };
  try {
    run(builtApp('venue-sim'), 'venue-sim');
    await waitFor(`${fleet.simUrl}/venues`);
    run(builtApp('budget'), 'budget');
    run(builtApp('gateway'), 'gateway');
    await waitFor(`${fleet.base}/healthz`);
    for (let index = 1; index <= WORKERS; index += 1) {
      const port = await freePort();
      run(builtApp('worker'), `worker-${index}`, {
        WORKER_ID: `egress-worker-${index}`,
        WORKER_METRICS_PORT: String(port),
      });
      await waitFor(`http://127.0.0.1:${port}/healthz`);
      fleet.workerMetrics.push(`http://127.0.0.1:${port}/metrics`);
    }
    return fleet;
  } catch (error) {
    await fleet.stop();
    throw error;
  }
}

/** One create, maker on `venue`, hedge on Lighter: the trade's id, or what it answered. */
async function create(
  base: string,
  venue: string,
  trader: PaperTrader,
): Promise<{ tradeId: string } | { status: number; answer: string }> {
  const answer = await fetch(`${base}/api/v1/trades`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': trader.key,
      'x-idempotency-key': `egress-${randomBytes(8).toString('hex')}`,
    },
    body: restingTradeBody(venue, HEDGE, trader.wallet),
  });
  if (answer.status !== 202) {
    return { status: answer.status, answer: await answer.text() };
  }
  return { tradeId: ((await answer.json()) as { trade_id: string }).trade_id };
}

/**
 * Creates trades on `venue`, a new trader each, until every egress has had a
 * create refused for want of rate budget (or CREATES_PER_EGRESS per egress
 * were tried). Any other refusal stops the bench: it would not be a count of
 * what the budget admits.
 */
async function fillVenue(
  fleet: Fleet,
  venue: string,
): Promise<{ admitted: Admitted[]; refused: Refused[] }> {
  const egresses = fleet.plan.egresses.map((egress) => egress.id);
  const admitted: Admitted[] = [];
  const refused: Refused[] = [];
  const allRefused = () => egresses.every((id) => refused.some((r) => r.egress === id));
  let trader: PaperTrader | undefined;
  for (let tries = 0; !allRefused() && tries < CREATES_PER_EGRESS * egresses.length; tries += 1) {
    if (!trader || tries % PER_WALLET === 0) {
      trader = await seedLiveTrader(fleet.env, fleet.simUrl, [venue, HEDGE]);
    }
    const egress = egressOf(fleet.plan, venue, trader.wallet).id;
    const answer = await create(fleet.base, venue, trader);
    if ('tradeId' in answer) {
      admitted.push({ trader, tradeId: answer.tradeId, egress });
    } else if (answer.status === 429 && answer.answer.includes('rate_budget_exhausted')) {
      refused.push({ egress, answer: answer.answer });
    } else {
      throw new Error(`create on ${venue} answered ${answer.status}: ${answer.answer}`);
    }
  }
  return { admitted, refused };
}

/** The trade as the API shows it: its status and its budget share now. */
async function viewOf(
  base: string,
  trade: Admitted,
): Promise<{ status: string; rate_budget: number }> {
  const answer = await fetch(`${base}/api/v1/trades/${trade.tradeId}`, {
    headers: { 'x-api-key': trade.trader.key },
  });
  return (await answer.json()) as { status: string; rate_budget: number };
}

/** Until every trade's status is one of `statuses`; throws naming those that are not. */
async function waitForStatuses(
  base: string,
  trades: Admitted[],
  statuses: readonly string[],
  withinMs: number,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  let behind: string[] = [];
  do {
    const seen = await Promise.all(trades.map(async (trade) => (await viewOf(base, trade)).status));
    behind = seen.flatMap((status, i) =>
      statuses.includes(status) ? [] : [`${trades[i]?.tradeId} ${status}`],
    );
    if (behind.length === 0) {
      return;
    }
    await sleep(500);
  } while (Date.now() < deadline);
  throw new Error(`not ${statuses.join('/')} in ${withinMs} ms: ${behind.join(', ')}`);
}

/** Cancels every trade through the API and waits until none is live (its share released). */
async function cancelAll(base: string, trades: Admitted[]): Promise<void> {
  for (const trade of trades) {
    await fetch(`${base}/api/v1/trades/${trade.tradeId}`, {
      method: 'DELETE',
      headers: { 'x-api-key': trade.trader.key },
    });
  }
  await waitForStatuses(
    base,
    trades,
    ['canceled', 'completed', 'failed', 'rejected'],
    ACTIVE_WITHIN_MS,
  );
}

/** Every `ip:` key of the venue's per-IP pools, with what it admitted and refused. */
async function ipCounts(control: SimControl, venue: string): Promise<IpCount[]> {
  const { pools } = await control.dialectRateLimits(venue);
  return pools
    .filter((pool) => pool.scope === 'ip')
    .flatMap((pool) =>
      pool.keys.map((count) => ({
        pool: pool.id,
        key: count.key,
        admitted: count.admitted_weight,
        refused: count.refused,
        maxWindow: count.max_window_weight,
        capacity: pool.capacity,
        windowMs: pool.window_ms,
        byKind: count.by_kind,
      })),
    );
}

/** Orders the trade's trader placed on `venue` from `fromMs` to `toMs`, by the simulator's records. */
async function ordersPlaced(
  control: SimControl,
  venue: string,
  trade: Admitted,
  fromMs: number,
  toMs: number,
): Promise<number> {
  const { orders } = await control.accountOrders(venue, trade.trader.wallet);
  return orders.filter((order) => order.created_at_ms >= fromMs && order.created_at_ms < toMs)
    .length;
}

/** Requests the venue's dialect refused, over every pool (per-IP and per-account). */
async function dialectRefusals(control: SimControl, venue: string): Promise<number> {
  const { pools } = await control.dialectRateLimits(venue);
  return pools.flatMap((pool) => pool.keys).reduce((sum, key) => sum + key.refused, 0);
}

/** What one venue's phase measured. */
interface VenueResult {
  venue: string;
  admitted: Admitted[];
  refused: Refused[];
  before: IpCount[];
  after: IpCount[];
  refusedByDialect: number;
  refusedByHedgeDialect: number;
  /** The tokens the workers' live clients sent to the venue by kind, paid by a trade or by none (from their metrics). */
  sentTokens: SentTokens;
  /** The dialect's refusals (every pool) every TIMELINE_STEP_MS of the quoting: when they came. */
  timeline: string;
  /** Each admitted trade's share at the end of the quoting, in `admitted`'s order. */
  shares: number[];
  /** Admitted trades their pre-flight rejected. */
  rejected: number;
  /** Maker orders each admitted trade placed a second while quoting, by the simulator's records. */
  quotesPerS: number[];
  /** How long the creates took (each with its trader's seeding), and the quoting. */
  createSeconds: number;
  seconds: number;
  /** Hyperliquid: the order and cancel actions the dialect logged for the trades' wallets, by orders carried. */
  actionSizes?: Record<string, number>;
}

/** One venue: fill it, let its trades quote for SECONDS, read the dialect, cancel them. */
async function runVenue(fleet: Fleet, venue: string): Promise<VenueResult> {
  const control = new SimControl(fleet.simUrl);
  await control.resetDialectRateLimits(venue);
  await control.resetDialectRateLimits(HEDGE);
  const creating = Date.now();
  const { admitted, refused } = await fillVenue(fleet, venue);
  const createSeconds = (Date.now() - creating) / 1000;
  try {
    // A trade its pre-flight rejected (the venue refused a read) is counted, not waited for.
    await waitForStatuses(fleet.base, admitted, ['active', 'rejected'], ACTIVE_WITHIN_MS);
    const before = await ipCounts(control, venue);
    const started = Date.now();
    const timeline = await refusalsOver(control, venue, started, SECONDS * 1000);
    const after = await ipCounts(control, venue);
    const sentTokens = await workersSent(fleet.workerMetrics, venue);
    const ended = Date.now();
    const seconds = (ended - started) / 1000;
    const views = await Promise.all(admitted.map((trade) => viewOf(fleet.base, trade)));
    const quotes = await Promise.all(
      admitted.map((trade) => ordersPlaced(control, venue, trade, started, ended)),
    );
    return {
      ...{ venue, admitted, refused, before, after, createSeconds, seconds, sentTokens, timeline },
      refusedByDialect: await dialectRefusals(control, venue),
      refusedByHedgeDialect: await dialectRefusals(control, HEDGE),
      shares: views.map((view) => view.rate_budget),
      rejected: views.filter((view) => view.status === 'rejected').length,
      // A wallet's orders are every trade's of it: each trade's part of them.
      quotesPerS: quotes.map((count, index) => count / seconds / sharing(admitted, index)),
      actionSizes:
        venue === 'hyperliquid' ? await hlActionSizes(fleet.simUrl, admitted) : undefined,
    };
  } finally {
    await cancelAll(fleet.base, admitted);
  }
}

/** An action the Hyperliquid dialect logged: its type and the orders or cancels it carried. */
interface HlLogged {
  action: { type: string; orders?: unknown[]; cancels?: unknown[] };
}

/**
 * The order and cancel actions of the trades' wallets as the Hyperliquid
 * dialect logged them, counted by how many orders each carried
 * (`order 1: 410, order 2: 35, cancel 1: ...`): what batching made of them.
 */
async function hlActionSizes(
  simUrl: string,
  admitted: Admitted[],
): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  const wallets = new Set(admitted.map((trade) => trade.trader.wallet.toLowerCase()));
  for (const wallet of wallets) {
    const answer = await fetch(`${simUrl}/dialects/hyperliquid/_sim/actions?user=${wallet}`);
    const { actions } = (await answer.json()) as { actions: HlLogged[] };
    for (const { action } of actions) {
      const elements = action.orders ?? action.cancels;
      if (elements) {
        const key = `${action.type} ${elements.length}`;
        sizes[key] = (sizes[key] ?? 0) + 1;
      }
    }
  }
  return sizes;
}

/** How often the quoting's refusals are read. */
const TIMELINE_STEP_MS = 5_000;

/** `5 s 0, 10 s 3, …`: the dialect's refusals so far, read every TIMELINE_STEP_MS for `forMs`. */
async function refusalsOver(
  control: SimControl,
  venue: string,
  startedMs: number,
  forMs: number,
): Promise<string> {
  const steps: string[] = [];
  while (Date.now() - startedMs < forMs) {
    await sleep(Math.min(TIMELINE_STEP_MS, forMs - (Date.now() - startedMs)));
    const seconds = Math.round((Date.now() - startedMs) / 1000);
    steps.push(`${seconds} s ${await dialectRefusals(control, venue)}`);
  }
  return steps.join(', ');
}

/** Tokens by `kind` (paid by a trade's budget) and `kind unpaid`. */
type SentTokens = Record<string, number>;

/** What the workers' live clients sent to `venue` since they started, summed over the workers. */
async function workersSent(pages: readonly string[], venue: string): Promise<SentTokens> {
  const sent: SentTokens = {};
  const series = /^sts_worker_venue_request_tokens_total\{([^}]*)\} (\S+)$/gm;
  for (const page of pages) {
    const text = await (await fetch(page)).text();
    for (const [, labels, value] of text.matchAll(series)) {
      const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(labels!)?.[1];
      if (label('exchange') !== venue) {
        continue;
      }
      const key = `${label('kind')}${label('metered') === 'false' ? ' unpaid' : ''}`;
      sent[key] = (sent[key] ?? 0) + Number(value);
    }
  }
  return sent;
}

/** How many admitted trades share the wallet of the `index`th. */
function sharing(admitted: readonly Admitted[], index: number): number {
  const wallet = admitted[index]!.trader.wallet;
  return admitted.filter((trade) => trade.trader.wallet === wallet).length;
}

/** `a 9, b 8, c 10` from a list of egress ids, in the plan's order. */
function perEgress(plan: EgressPlan, ids: readonly string[]): string {
  return plan.egresses
    .map((egress) => `${egress.id} ${ids.filter((id) => id === egress.id).length}`)
    .join(', ');
}

/** Prints a phase: trades per egress, their shares, and each address's count at the dialect. */
function report(plan: EgressPlan, result: VenueResult): void {
  const { venue, admitted, refused } = result;
  const shares = [...new Set(result.shares)].sort((a, b) => a - b);
  const admittedPer = perEgress(
    plan,
    admitted.map((trade) => trade.egress),
  );
  const refusedPer = perEgress(
    plan,
    refused.map((refusal) => refusal.egress),
  );
  console.log(
    `${venue}, ${plan.egresses.length} egress(es): ${admitted.length} trades admitted (${admittedPer}), ` +
      `share ${shares.join('/')} tokens/s each at the end; ${refused.length} creates refused 429 ` +
      `(${refusedPer}); creates took ${result.createSeconds.toFixed(0)} s; ` +
      `${result.rejected} rejected at pre-flight`,
  );
  console.log(`  first refusal: ${refused[0]?.answer.slice(0, 300) ?? 'none'}`);
  const quotes = [...result.quotesPerS].sort((a, b) => a - b);
  const mean = quotes.reduce((sum, rate) => sum + rate, 0) / Math.max(quotes.length, 1);
  console.log(
    `  quoting: ${mean.toFixed(2)} maker orders a second per trade (least ${quotes[0]?.toFixed(2)}, ` +
      `most ${quotes[quotes.length - 1]?.toFixed(2)}), by the simulator's records`,
  );
  for (const count of result.after) {
    const start = result.before.find((c) => c.pool === count.pool && c.key === count.key);
    const perS = (count.admitted - (start?.admitted ?? 0)) / result.seconds;
    const limitPerS = (count.capacity * 1000) / count.windowMs;
    // 127.0.0.1 is no egress: the bench's own onboarding of its traders' wallets.
    const whose = count.key === 'ip:127.0.0.1' ? ' (the bench itself)' : '';
    console.log(
      `  ${count.pool} ${count.key}${whose}: weight ${count.admitted} admitted over the phase, ` +
        `${perS.toFixed(1)}/s over the ${result.seconds.toFixed(0)} s of quoting ` +
        `(pool ${count.capacity} per ${count.windowMs / 1000} s = ${limitPerS.toFixed(1)}/s), ` +
        `busiest window ${count.maxWindow}/${count.capacity}, refused ${count.refused} ` +
        `(${start?.refused ?? 0} of them before the quoting began)`,
    );
    console.log(`    by kind over the phase: ${kindsText(count.byKind)}`);
  }
  console.log(`  refusals so far, by time into the quoting: ${result.timeline}`);
  const sent = Object.entries(result.sentTokens).sort(([, a], [, b]) => b - a);
  const total = sent.reduce((sum, [, tokens]) => sum + tokens, 0);
  console.log(
    `  the workers sent ${total} tokens since they started, by kind: ` +
      sent.map(([kind, tokens]) => `${kind} ${tokens}`).join(', '),
  );
  if (result.actionSizes) {
    const sizes = Object.entries(result.actionSizes).sort(([a], [b]) => a.localeCompare(b));
    console.log(
      `  actions by orders carried: ${sizes.map(([key, count]) => `${key}: ${count}`).join(', ')}`,
    );
  }
  console.log(
    `  refused by ${venue}'s dialect (every pool, must be 0): ${result.refusedByDialect}; ` +
      `by ${HEDGE}'s (hedge venue): ${result.refusedByHedgeDialect}`,
  );
}

/** `cancel 310 (refused 4), place 402, ...`: what each kind of request spent, dearest first. */
function kindsText(byKind: IpCount['byKind']): string {
  return Object.entries(byKind)
    .sort(([, a], [, b]) => b.admitted_weight - a.admitted_weight)
    .map(([kind, k]) => `${kind} ${k.admitted_weight}${k.refused ? ` (refused ${k.refused})` : ''}`)
    .join(', ');
}

/** The venues asked for, each one with a per-IP limit when live; throws naming any other. */
function checkVenues(): void {
  const live = Object.fromEntries(
    VENUES.map((venue) => [`VENUE_${venue.toUpperCase()}_MODE`, 'live']),
  );
  const registry = loadVenueRegistry({ ...process.env, ...live });
  for (const venue of VENUES) {
    const terms = registry[venue as VenueId];
    if (!terms || venue === HEDGE || terms.ipRateLimitPerS === null) {
      throw new Error(`${venue}: not a venue with a per-IP limit (the hedge venue is ${HEDGE})`);
    }
  }
}

async function main(): Promise<void> {
  checkVenues();
  const logs = mkdtempSync(join(tmpdir(), 'sts-egress-bench-'));
  console.log(
    `trades per egress: venues ${VENUES.join(', ')}, hedge on ${HEDGE}, ${SECONDS} s of quoting each, ` +
      `${WORKERS} worker(s), ${PER_WALLET} trade(s) a wallet; logs in ${logs}`,
  );
  const load = machineLoad();
  for (const egresses of EGRESS_COUNTS) {
    const fleet = await startFleet(egresses, logs);
    try {
      for (const venue of VENUES) {
        report(fleet.plan, await runVenue(fleet, venue));
      }
    } finally {
      await fleet.stop();
    }
  }
  console.log(`machine over the run: ${load()}`);
}

runBench(main);
