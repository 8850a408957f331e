/**
 * What NATS_REPLICAS=3 (every stream and KV bucket held by all three JetStream
 * servers) costs against NATS_REPLICAS=1, on the lab's three-node cluster
 * (tools/lab: a NATS node and a worker on each of h1..h3, gateways, notifiers
 * and budget services on h1 and h2, Postgres, Redis and the venue simulator on
 * infra). Issue 56: docs/perf/nats-replicas.md.
 *
 *   node tools/build.mjs && node dist/bench/nats-replicas.bench.js
 *     [--rounds 3]            labs per setting, run alternately: R1, R3, R1, R3, ...
 *     [--create-rate 5]       creates a second, sent on a fixed schedule (open loop)
 *     [--warmup 10]           seconds of creates before the measured ones (left out)
 *     [--create-seconds 30]   seconds of measured creates
 *     [--traders 6]           users the creates go round (each with an API key, paper credentials)
 *     [--makers 6]            trades resting maker orders for the fill-to-hedge part
 *     [--takers-per-s 4]      outside takers filling them
 *     [--fill-seconds 15]     seconds of measured fills (after 3 s of unmeasured ones)
 *     [--idle-seconds 10]     seconds of no traffic whose CPU is read before the creates
 *
 * About 95 s a lab, so 9.5 minutes with the defaults (6.5 with --rounds 2).
 * A create costs the lab about 90 ms of CPU beyond its idle (start and cancel;
 * the worker 30 ms of it): 10 a second kept this 2-core machine 85-100 % busy
 * and the tail measured the queue for the CPU, hence 5. The warm-up is long enough for every trader's
 * trades to have reached every worker (a worker's first trade of an account
 * opens its venue sessions, kept 30 s after its last trade).
 *
 * Needs root (the lab's network namespaces). Each round brings a lab up with
 * the round's setting (streams are created at boot, so one lab cannot hold
 * both), checks the replicas JetStream reports, then measures:
 *
 * - create path: POST /api/v1/trades through h1's gateway, the latency of its
 *   202; then from the 202 to the trade's `trade.started` frame on h1's
 *   notifier WebSocket (the outbox publish to STS_TRADE_COMMANDS, a worker's
 *   pull and claim, pre-flight, the status change, its event on STS_EVENTS, the
 *   notifier's push), and to the worker's commit of that change (the trade's
 *   `trade_events` row, Postgres' clock against this process's, the same
 *   kernel's). The trades never fill (target spread out of reach) and are
 *   canceled as soon as they start. The 202 itself waits for no JetStream
 *   ack (the start command is published after the commit).
 * - CPU: every process in the lab's namespaces (/proc), by service, over the
 *   measured creates, per create; and the same less what the lab spends idle
 *   (read over --idle-seconds before the creates): Raft heartbeats, leases.
 * - fill-to-hedge: trades resting maker orders on hyperliquid (hedged on
 *   paradex) filled by outside takers through the simulator's control API;
 *   each worker's `sts_worker_fill_to_hedge_sent_seconds` histogram read
 *   before and after (quantiles interpolated within its buckets, the mean
 *   exact). Nothing sits between a maker fill and its hedge order, so the
 *   setting should not move it.
 *
 * Then takes the lab down (also on failure and on Ctrl-C). Lab name stsbench,
 * subnet 10.81.0.0/24 (LAB_NAME, LAB_NET override them).
 */
// First: @sts/platform's settings convert NATS_REPLICAS (a string in the env) to a number only
// if reflect-metadata is loaded before their classes are (the ops tool runs in this process).
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import WebSocket from 'ws';
import { SimControl } from '@sts/app-venue-sim';
import { HOST_SERVICES, HOSTS, Lab, type LabInfo } from '@sts/lab';
import { sleep } from '@sts/platform';
import { TestOperator } from '@sts/testing';
import { describeSpeed, machineLoad, speedProbe } from './process-cpu';
import { numberArg, percentile } from './run-bench';

const ROUNDS = numberArg('rounds', 3);
const CREATE_RATE = numberArg('create-rate', 5);
const WARMUP_S = numberArg('warmup', 10);
const CREATE_S = numberArg('create-seconds', 30);
const MAKERS = numberArg('makers', 6);
const TRADERS = Math.max(MAKERS, numberArg('traders', 6));
const TAKERS_PER_S = numberArg('takers-per-s', 4);
const FILL_S = numberArg('fill-seconds', 15);
const FILL_WARMUP_S = 3;
/** Seconds the lab is left idle, its CPU read, before the creates. */
const IDLE_S = numberArg('idle-seconds', 10);
const LAB_NAME = process.env['LAB_NAME'] ?? 'stsbench';
const LAB_NET = Number(process.env['LAB_NET'] ?? 81);
/** A started trade's frame may trail its 202 by this much before it counts as never started. */
const START_GRACE_MS = 15_000;

/** Every service of the lab: room for the bench's trades on hyperliquid (2 live per wallet by default). */
const CAPS: Record<string, string> = {
  VENUE_HYPERLIQUID_MAKER_CAP: '1000',
};

interface Trader {
  userId: string;
  wallet: string;
  apiKey: string;
}

/** One create: when it went, how it was answered, and when the trade started. */
interface Create {
  trader: Trader;
  measured: boolean;
  status?: number | 'error';
  /** performance.now() of the 202 (answer headers in). */
  answeredAt?: number;
  /** Date.now() of the 202, against Postgres' clock. */
  answeredWall?: number;
  latencyMs?: number;
  tradeId?: string;
}

/** The bucket counts of a Prometheus histogram, summed over its label sets. */
interface Histogram {
  /** Cumulative count per upper bound (+Inf last). */
  buckets: Map<number, number>;
  count: number;
  sum: number;
}

interface RoundResult {
  replicas: number;
  round: number;
  upMs: number;
  streams: string;
  createMs: number[];
  non202: Record<string, number>;
  startMs: number[];
  activeMs: number[];
  unstarted: number;
  fill: Histogram;
  fillByWorker: string;
  hedgeOutcomes: string;
  takers: number;
  takerFailures: number;
  machine: string;
  /** CPU ms per measured create, by service, over the create window. */
  cpu: string;
  /** The same, less what the lab spends idle over as long (`idle`). */
  cpuNet: string;
  /** CPU ms a second by service with no traffic (after the traders are made, before the creates). */
  idle: string;
  /** 202 to trade.started, p50 of the window's first half / second half (a backlog grows). */
  startHalves: string;
  load: string;
}

const body = (wallet: string, terms: Record<string, unknown>) => ({
  market: 'ETH',
  long_exchange: 'hyperliquid',
  long_wallet: wallet,
  short_exchange: 'paradex',
  short_wallet: wallet,
  spread_condition: 'gte',
  execution_type: 'maker_taker',
  maker_leg: 'long',
  max_slippage: '0.001',
  idempotency_key: `nr-${randomBytes(8).toString('hex')}`,
  ...terms,
});

/** Never fills: the target spread is out of reach, so the trade rests nothing (the fault matrix's load). */
const idleBody = (wallet: string) => body(wallet, { target_spread: '100000', target_size: '1' });

/** Rests a maker bid at the top of hyperliquid's BTC book, hedged on paradex. */
const makerBody = (wallet: string) =>
  body(wallet, {
    market: 'BTC',
    target_spread: '-1000',
    target_size: '0.25',
    quote_mode: 'aggressive',
  });

let currentLab: Lab | undefined;

async function post(base: string, path: string, trader: Trader, payload: unknown) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': trader.apiKey },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(10_000),
  });
}

async function cancel(base: string, trader: Trader, tradeId: string): Promise<void> {
  await fetch(`${base}/api/v1/trades/${tradeId}`, {
    method: 'DELETE',
    headers: { 'x-api-key': trader.apiKey },
    signal: AbortSignal.timeout(10_000),
  })
    .then((response) => response.body?.cancel())
    .catch(() => undefined);
}

/** The WebSocket of each trader on h1's notifier: when each of its trades' `trade.started` came. */
class StartWatch {
  readonly startedAt = new Map<string, number>();
  private readonly sockets: WebSocket[] = [];
  private readonly listeners = new Map<string, () => void>();

  async open(notifier: string, traders: Trader[]): Promise<void> {
    const url = `${notifier.replace(/^http/, 'ws')}/api/v1/ws`;
    await Promise.all(
      traders.map(async (trader) => {
        const socket = new WebSocket(url, { headers: { 'x-api-key': trader.apiKey } });
        this.sockets.push(socket);
        const subscribed = new Promise<void>((resolve, reject) => {
          socket.once('error', reject);
          socket.on('message', (data) => {
            const at = performance.now();
            const message = JSON.parse(String(data)) as {
              type: string;
              event?: string;
              trade_id?: string;
            };
            if (message.type === 'subscribed') {
              resolve();
            } else if (message.type === 'event' && message.event === 'trade.started') {
              const id = message.trade_id!;
              if (!this.startedAt.has(id)) {
                this.startedAt.set(id, at);
                this.listeners.get(id)?.();
              }
            }
          });
        });
        await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
        socket.send(JSON.stringify({ op: 'subscribe', subscription: 'trades', params: {} }));
        await subscribed;
      }),
    );
  }

  /** Runs `then` when the trade has started (at once if it already has). */
  onStarted(tradeId: string, then: () => void): void {
    if (this.startedAt.has(tradeId)) {
      then();
    } else {
      this.listeners.set(tradeId, then);
    }
  }

  close(): void {
    for (const socket of this.sockets) {
      socket.terminate();
    }
  }
}

async function makeTraders(info: LabInfo, replicas: number): Promise<Trader[]> {
  const operator = new TestOperator(() => ({
    ...info.env,
    NATS_REPLICAS: String(replicas),
    LOG_LEVEL: 'warn',
  }));
  const traders: Trader[] = [];
  for (let index = 0; index < TRADERS; index += 1) {
    const user = await operator.userWithKey('trades:read,trades:write,account:read');
    for (const venue of ['hyperliquid', 'paradex']) {
      await operator.paperCredential(user.userId, venue, user.wallet);
    }
    traders.push({ userId: user.userId, wallet: user.wallet, apiKey: user.apiKey });
  }
  return traders;
}

interface JszStream {
  name: string;
  config?: { num_replicas?: number };
  cluster?: { leader?: string; replicas?: unknown[] };
  consumer_detail?: Array<{
    name: string;
    cluster?: { leader?: string; replicas?: unknown[] };
  }>;
}

/**
 * What JetStream holds, from every node's monitor (a node reports only the
 * streams it has a copy of): each stream's configured replicas, copies and
 * leader, and its consumers' copies.
 */
async function describeReplicas(info: LabInfo): Promise<string> {
  const streams = new Map<string, JszStream>();
  for (const monitor of Object.values(info.natsMonitor)) {
    try {
      const jsz = (await (
        await fetch(`${monitor}/jsz?accounts=true&streams=true&consumers=true&config=true`, {
          signal: AbortSignal.timeout(3_000),
        })
      ).json()) as { account_details?: Array<{ stream_detail?: JszStream[] }> };
      for (const stream of (jsz.account_details ?? []).flatMap((a) => a.stream_detail ?? [])) {
        const seen = streams.get(stream.name);
        const consumers = new Map(
          [...(seen?.consumer_detail ?? []), ...(stream.consumer_detail ?? [])].map((c) => [
            c.name,
            c,
          ]),
        );
        streams.set(stream.name, { ...stream, consumer_detail: [...consumers.values()] });
      }
    } catch {
      // that node did not answer: the others may
    }
  }
  const copies = (cluster?: { replicas?: unknown[] }) => 1 + (cluster?.replicas?.length ?? 0);
  return (
    [...streams.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((stream) => {
        const consumers = (stream.consumer_detail ?? []).map(
          (consumer) =>
            `${consumer.name} ${copies(consumer.cluster)} on ${consumer.cluster?.leader ?? '?'}`,
        );
        return `${stream.name} R${stream.config?.num_replicas} ${copies(stream.cluster)} copies, leader ${stream.cluster?.leader ?? '?'}${consumers.length ? ` (consumers: ${consumers.join(', ')})` : ''}`;
      })
      .join('; ') || 'no stream reported'
  );
}

/**
 * CPU time (ms) the lab's processes have used so far, by service (summed over
 * hosts): every process in the lab's namespaces, the Node services told apart
 * by their pids, the rest by command name (Postgres' backends too).
 */
function labCpu(lab: Lab): Map<string, number> {
  const hostOfNamespace = new Map<string, string>();
  for (const host of HOSTS) {
    try {
      hostOfNamespace.set(`net:[${statSync(`/run/netns/${LAB_NAME}-${host}`).ino}]`, host);
    } catch {
      // not there: nothing of it to count
    }
  }
  const serviceOfPid = new Map<string, string>();
  for (const host of HOSTS) {
    for (const service of HOST_SERVICES[host]) {
      const pid = lab.pid(host, service);
      if (pid !== undefined) {
        serviceOfPid.set(String(pid), service);
      }
    }
  }
  const spent = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!hostOfNamespace.has(readlinkSync(`/proc/${pid}/ns/net`))) {
        continue;
      }
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // utime, stime, cutime, cstime (ticks of 10 ms).
      const ticks = [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field]), 0);
      const service =
        serviceOfPid.get(pid) ??
        (
          { 'nats-server': 'nats', postgres: 'postgres', 'redis-server': 'redis' } as Record<
            string,
            string
          >
        )[comm] ??
        'other';
      spent.set(service, (spent.get(service) ?? 0) + ticks * 10);
    } catch {
      // gone meanwhile
    }
  }
  return spent;
}

/** CPU ms each service used between two labCpu snapshots. */
function cpuSpent(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([service, ms]) => [service, ms - (before.get(service) ?? 0)]));
}

/** `nats 1.2 · worker 3.4 · ... · all 9.9`, largest first: `spent` divided by `n`. */
function perUnit(spent: Map<string, number>, n: number): string {
  const total = [...spent.values()].reduce((sum, ms) => sum + ms, 0);
  const parts = [...spent]
    .sort((a, b) => b[1] - a[1])
    .map(([service, ms]) => `${service} ${(ms / n).toFixed(1)}`);
  return `${parts.join(' · ')} · all ${(total / n).toFixed(1)}`;
}

/** What the lab spends doing nothing (leases, Raft heartbeats, polls): ms of CPU a second. */
async function idleCpu(lab: Lab, seconds: number): Promise<Map<string, number>> {
  const before = labCpu(lab);
  const started = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  return new Map([...cpuSpent(before, labCpu(lab))].map(([s, ms]) => [s, ms / elapsed]));
}

/** POSTs on a fixed schedule (open loop), each trade canceled once it started. */
async function measureCreates(
  lab: Lab,
  info: LabInfo,
  traders: Trader[],
  watch: StartWatch,
  idle: Map<string, number>,
): Promise<{ creates: Create[]; machine: string; cpu: string; cpuNet: string }> {
  const gateway = info.gateways.h1;
  const creates: Create[] = [];
  const inFlight: Promise<void>[] = [];
  const total = Math.round((WARMUP_S + CREATE_S) * CREATE_RATE);
  const warm = Math.round(WARMUP_S * CREATE_RATE);
  const interval = 1000 / CREATE_RATE;
  let load: (() => string) | undefined;
  let cpuBefore = new Map<string, number>();
  let windowStarted = 0;
  const started = performance.now();
  for (let index = 0; index < total; index += 1) {
    await sleep(Math.max(0, started + index * interval - performance.now()));
    if (index === warm) {
      load = machineLoad();
      cpuBefore = labCpu(lab);
      windowStarted = performance.now();
    }
    const create: Create = { trader: traders[index % traders.length], measured: index >= warm };
    creates.push(create);
    const sentAt = performance.now();
    inFlight.push(
      post(gateway, '/api/v1/trades', create.trader, idleBody(create.trader.wallet))
        .then(async (response) => {
          create.answeredAt = performance.now();
          create.answeredWall = Date.now();
          create.latencyMs = create.answeredAt - sentAt;
          create.status = response.status;
          const answer = (await response.json()) as { trade_id?: string };
          if (response.status === 202 && answer.trade_id) {
            const tradeId = answer.trade_id;
            create.tradeId = tradeId;
            watch.onStarted(tradeId, () => void cancel(gateway, create.trader, tradeId));
          }
        })
        .catch(() => {
          create.status = 'error';
        }),
    );
  }
  await Promise.all(inFlight);
  const machine = load?.() ?? '';
  const spent = cpuSpent(cpuBefore, labCpu(lab));
  const windowS = (performance.now() - windowStarted) / 1000;
  const net = new Map(
    [...spent].map(([service, ms]) => [service, ms - (idle.get(service) ?? 0) * windowS]),
  );
  const cpu = perUnit(spent, total - warm);
  const cpuNet = perUnit(net, total - warm);
  const deadline = performance.now() + START_GRACE_MS;
  const waiting = () => creates.filter((c) => c.tradeId && !watch.startedAt.has(c.tradeId));
  while (waiting().length > 0 && performance.now() < deadline) {
    await sleep(200);
  }
  return { creates, machine, cpu, cpuNet };
}

/** When each trade's change to `active` was committed (its execution-log row), by trade. */
async function activeCommits(info: LabInfo, tradeIds: string[]): Promise<Map<string, number>> {
  const client = new Client({ connectionString: info.databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ trade_id: string; at: string }>(
      `SELECT trade_id, (EXTRACT(EPOCH FROM min(created_at)) * 1000)::float8 AS at
         FROM trade_events
        WHERE trade_id = ANY($1) AND event_type = 'chunk_started'
        GROUP BY trade_id`,
      [tradeIds],
    );
    return new Map(rows.rows.map((row) => [row.trade_id, Number(row.at)]));
  } finally {
    await client.end();
  }
}

/** The event types the trades' execution logs hold (to find the start's row if its name changes). */
async function eventTypes(info: LabInfo, tradeId: string): Promise<string> {
  const client = new Client({ connectionString: info.databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ event_type: string }>(
      'SELECT event_type FROM trade_events WHERE trade_id = $1 ORDER BY sequence',
      [tradeId],
    );
    return rows.rows.map((row) => row.event_type).join(', ');
  } finally {
    await client.end();
  }
}

/** Every series of `metric` in a /metrics text, as [labels, value]. */
function series(text: string, metric: string): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(metric)) {
      continue;
    }
    const match = /^([a-z_]+)(\{[^}]*\})? (\S+)/.exec(line);
    if (match && match[1] === metric) {
      found.push([match[2] ?? '', Number(match[3])]);
    }
  }
  return found;
}

function histogramOf(text: string, name: string): Histogram {
  const buckets = new Map<number, number>();
  for (const [labels, value] of series(text, `${name}_bucket`)) {
    const le = /le="([^"]+)"/.exec(labels)?.[1];
    const bound = le === '+Inf' ? Infinity : Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + value);
  }
  const total = (metric: string) => series(text, metric).reduce((sum, [, v]) => sum + v, 0);
  return { buckets, count: total(`${name}_count`), sum: total(`${name}_sum`) };
}

function minus(after: Histogram, before: Histogram): Histogram {
  const buckets = new Map<number, number>();
  for (const [bound, value] of after.buckets) {
    buckets.set(bound, value - (before.buckets.get(bound) ?? 0));
  }
  return { buckets, count: after.count - before.count, sum: after.sum - before.sum };
}

function plus(a: Histogram, b: Histogram): Histogram {
  const buckets = new Map(a.buckets);
  for (const [bound, value] of b.buckets) {
    buckets.set(bound, (buckets.get(bound) ?? 0) + value);
  }
  return { buckets, count: a.count + b.count, sum: a.sum + b.sum };
}

const emptyHistogram = (): Histogram => ({ buckets: new Map(), count: 0, sum: 0 });

/** The `q` quantile, interpolated within its bucket as Prometheus' histogram_quantile does. */
function quantile(histogram: Histogram, q: number): number {
  const bounds = [...histogram.buckets.keys()].sort((a, b) => a - b);
  const total = histogram.buckets.get(Infinity) ?? histogram.count;
  if (total <= 0) {
    return Number.NaN;
  }
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const bound of bounds) {
    const cumulative = histogram.buckets.get(bound)!;
    if (cumulative >= rank) {
      if (bound === Infinity) {
        return lower;
      }
      return lower + ((bound - lower) * (rank - below)) / Math.max(1, cumulative - below);
    }
    lower = bound;
    below = cumulative;
  }
  return lower;
}

const WORKERS = ['h1/worker', 'h2/worker', 'h3/worker'];

async function scrapeWorkers(info: LabInfo): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const worker of WORKERS) {
    const response = await fetch(`${info.metrics[worker]}/metrics`, {
      signal: AbortSignal.timeout(5_000),
    });
    texts.set(worker, await response.text());
  }
  return texts;
}

const FILL_TO_HEDGE = 'sts_worker_fill_to_hedge_sent_seconds';

/** Makers rest, outside takers fill them; the workers' fill-to-hedge histograms before and after. */
async function measureFills(
  info: LabInfo,
  traders: Trader[],
  watch: StartWatch,
): Promise<
  Pick<RoundResult, 'fill' | 'fillByWorker' | 'hedgeOutcomes' | 'takers' | 'takerFailures'>
> {
  const gateway = info.gateways.h1;
  const makers = traders.slice(0, MAKERS);
  const tradeIds: string[] = [];
  for (const trader of makers) {
    const response = await post(gateway, '/api/v1/trades', trader, makerBody(trader.wallet));
    const answer = (await response.json()) as { trade_id?: string };
    if (response.status !== 202 || !answer.trade_id) {
      throw new Error(`maker trade: ${response.status} ${JSON.stringify(answer)}`);
    }
    tradeIds.push(answer.trade_id);
  }
  const deadline = performance.now() + 30_000;
  while (tradeIds.some((id) => !watch.startedAt.has(id))) {
    if (performance.now() > deadline) {
      throw new Error('maker trades not started within 30 s');
    }
    await sleep(200);
  }
  await sleep(1_000);
  const sim = new SimControl(info.sim);
  let takers = 0;
  let takerFailures = 0;
  const drive = async (seconds: number): Promise<void> => {
    const started = performance.now();
    const count = Math.round(seconds * TAKERS_PER_S);
    for (let index = 0; index < count; index += 1) {
      await sleep(Math.max(0, started + (index * 1000) / TAKERS_PER_S - performance.now()));
      try {
        await sim.trade('hyperliquid', 'BTC', 'sell', '0.005');
        takers += 1;
      } catch {
        takerFailures += 1;
      }
    }
  };
  await drive(FILL_WARMUP_S);
  await sleep(500);
  const before = await scrapeWorkers(info);
  takers = 0;
  takerFailures = 0;
  await drive(FILL_S);
  await sleep(1_500);
  const after = await scrapeWorkers(info);
  let fill = emptyHistogram();
  const byWorker: string[] = [];
  const outcomes = new Map<string, number>();
  for (const worker of WORKERS) {
    const diff = minus(
      histogramOf(after.get(worker)!, FILL_TO_HEDGE),
      histogramOf(before.get(worker)!, FILL_TO_HEDGE),
    );
    fill = plus(fill, diff);
    byWorker.push(`${worker.split('/')[0]} ${diff.count}`);
    const was = new Map(series(before.get(worker)!, 'sts_worker_hedge_outcomes_total'));
    for (const [labels, value] of series(after.get(worker)!, 'sts_worker_hedge_outcomes_total')) {
      const result = /result="([^"]+)"/.exec(labels)?.[1] ?? '?';
      outcomes.set(result, (outcomes.get(result) ?? 0) + value - (was.get(labels) ?? 0));
    }
  }
  for (const [index, tradeId] of tradeIds.entries()) {
    await cancel(gateway, makers[index], tradeId);
  }
  return {
    fill,
    fillByWorker: byWorker.join(', '),
    hedgeOutcomes: [...outcomes].map(([result, n]) => `${result} ${n}`).join(', ') || 'none',
    takers,
    takerFailures,
  };
}

async function runRound(replicas: number, round: number): Promise<RoundResult> {
  const lab = new Lab({ name: LAB_NAME, net: LAB_NET });
  currentLab = lab;
  const roundStarted = performance.now();
  const upStarted = performance.now();
  const loadBefore = loadavg()[0];
  try {
    const info = await lab.up({
      env: { ...CAPS, NATS_REPLICAS: String(replicas) },
      seed: 1,
      // Manual time: the books stay where they are, so the only work is the bench's.
      simTickMs: 0,
      logLevel: 'info',
      serviceEnv: { gateway: { GATEWAY_RATE_LIMIT_PER_S: '100000' } },
    });
    const upMs = performance.now() - upStarted;
    const streams = await describeReplicas(info);
    console.log(`R${replicas} round ${round}: lab up in ${(upMs / 1000).toFixed(1)} s; ${streams}`);
    const tradersStarted = performance.now();
    const traders = await makeTraders(info, replicas);
    console.log(
      `  ${TRADERS} traders in ${((performance.now() - tradersStarted) / 1000).toFixed(1)} s`,
    );
    const watch = new StartWatch();
    await watch.open(info.notifiers.h1, traders);
    try {
      const idle = await idleCpu(lab, IDLE_S);
      const { creates, machine, cpu, cpuNet } = await measureCreates(
        lab,
        info,
        traders,
        watch,
        idle,
      );
      const measured = creates.filter((create) => create.measured);
      const non202: Record<string, number> = {};
      for (const create of measured.filter((c) => c.status !== 202)) {
        non202[String(create.status)] = (non202[String(create.status)] ?? 0) + 1;
      }
      const accepted = measured.filter((create) => create.tradeId);
      const commits = await activeCommits(
        info,
        accepted.map((create) => create.tradeId!),
      );
      if (commits.size === 0 && accepted.length > 0) {
        console.log(
          `  no 'chunk_started' row in trade_events; a trade's rows: ${await eventTypes(info, accepted[0].tradeId!)}`,
        );
      }
      const startMs: number[] = [];
      const activeMs: number[] = [];
      const halves: [number[], number[]] = [[], []];
      for (const [index, create] of accepted.entries()) {
        const at = watch.startedAt.get(create.tradeId!);
        if (at !== undefined) {
          startMs.push(at - create.answeredAt!);
          halves[index < accepted.length / 2 ? 0 : 1].push(at - create.answeredAt!);
        }
        const committed = commits.get(create.tradeId!);
        if (committed !== undefined) {
          activeMs.push(committed - create.answeredWall!);
        }
      }
      const fills = await measureFills(info, traders, watch);
      const streamsAfter = await describeReplicas(info);
      if (streamsAfter !== streams) {
        console.log(`  JetStream at the end: ${streamsAfter}`);
      }
      return {
        replicas,
        round,
        upMs,
        streams,
        createMs: measured.flatMap((c) => (c.status === 202 ? [c.latencyMs!] : [])),
        non202,
        startMs,
        activeMs,
        unstarted: accepted.length - startMs.length,
        ...fills,
        machine,
        cpu,
        cpuNet,
        idle: perUnit(idle, 1),
        startHalves: `${p(halves[0], 50)} / ${p(halves[1], 50)}`,
        load: `load average ${loadBefore.toFixed(2)} before up, ${loadavg()[0].toFixed(2)} after`,
      };
    } finally {
      watch.close();
    }
  } finally {
    const downStarted = performance.now();
    await lab.down();
    currentLab = undefined;
    const now = performance.now();
    console.log(
      `  lab down in ${((now - downStarted) / 1000).toFixed(1)} s; round took ${((now - roundStarted) / 1000).toFixed(0)} s`,
    );
  }
}

const sorted = (values: number[]): number[] => [...values].sort((a, b) => a - b);
const ms = (value: number): string => (Number.isNaN(value) ? '-' : value.toFixed(1));
const p = (values: number[], q: number): string => ms(percentile(sorted(values), q));
const hq = (histogram: Histogram, q: number): string => ms(quantile(histogram, q) * 1000);

function row(label: string, round: string, results: RoundResult[]): string {
  const all = (pick: (r: RoundResult) => number[]) => results.flatMap(pick);
  const fill = results.reduce((sum, r) => plus(sum, r.fill), emptyHistogram());
  const creates = all((r) => r.createMs);
  const starts = all((r) => r.startMs);
  const actives = all((r) => r.activeMs);
  const mean = fill.count > 0 ? ms((fill.sum / fill.count) * 1000) : '-';
  return [
    label.padEnd(4),
    round.padEnd(5),
    `${p(creates, 50)} / ${p(creates, 99)}`.padStart(15),
    `${p(starts, 50)} / ${p(starts, 99)}`.padStart(15),
    `${p(actives, 50)} / ${p(actives, 99)}`.padStart(15),
    `${hq(fill, 0.5)} / ${hq(fill, 0.99)} (${mean})`.padStart(20),
    `${creates.length}/${starts.length}/${fill.count}`.padStart(13),
  ].join('  ');
}

const HEADER = [
  'set ',
  'round',
  'create p50/p99'.padStart(15),
  '202>WS p50/p99'.padStart(15),
  '202>DB p50/p99'.padStart(15),
  'f2h p50/p99 (mean)'.padStart(20),
  'n c/s/f'.padStart(13),
].join('  ');

async function main(): Promise<void> {
  const speedBefore = speedProbe();
  const order: Array<[number, number]> = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    order.push([1, round], [3, round]);
  }
  console.log(
    `${order.length} labs (${order.map(([r]) => `R${r}`).join(', ')}); per lab: ${CREATE_RATE} creates/s for ${WARMUP_S} s unmeasured + ${CREATE_S} s measured; ${MAKERS} makers, ${TAKERS_PER_S} takers/s for ${FILL_WARMUP_S} s unmeasured + ${FILL_S} s measured`,
  );
  const results: RoundResult[] = [];
  for (const [replicas, round] of order) {
    const result = await runRound(replicas, round);
    results.push(result);
    const non202 = Object.entries(result.non202);
    console.log(
      `  creates ${result.createMs.length} answered 202${non202.length ? `, others: ${non202.map(([s, n]) => `${s} x${n}`).join(', ')}` : ''}; started ${result.startMs.length} (never: ${result.unstarted}); active rows ${result.activeMs.length}`,
    );
    console.log(
      `  fills: ${result.fill.count} hedges timed (${result.fillByWorker}) from ${result.takers} takers (${result.takerFailures} failed); hedge outcomes: ${result.hedgeOutcomes}`,
    );
    console.log(
      `  202>WS p50 first half / second half: ${result.startHalves} ms; CPU ms per create: ${result.cpu}`,
    );
    console.log(`  CPU ms a second idle: ${result.idle}`);
    console.log(`  CPU ms per create less idle: ${result.cpuNet}`);
    console.log(`  machine while creating: ${result.machine}; ${result.load}`);
    console.log(`  ${HEADER}\n  ${row(`R${replicas}`, String(round), [result])}`);
  }
  console.log(
    "\nms; 202>WS: 202 to trade.started on the socket; 202>DB: 202 to the worker's write of active (its transaction's now());",
  );
  console.log(
    'f2h: fill to hedge sent (bucket-interpolated p50/p99, exact mean); n: creates/starts/fills\n',
  );
  console.log(HEADER);
  for (const result of results) {
    console.log(row(`R${result.replicas}`, String(result.round), [result]));
  }
  for (const replicas of [1, 3]) {
    console.log(
      row(
        `R${replicas}`,
        'all',
        results.filter((r) => r.replicas === replicas),
      ),
    );
  }
  const ups = results.map((r) => (r.upMs / 1000).toFixed(1));
  console.log(`\nlab up: ${ups.join(', ')} s`);
  console.log(`machine's speed: ${describeSpeed(speedBefore, speedProbe())}`);
}

/** Like runBench, but the lab comes down on Ctrl-C too. */
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: taking lab ${LAB_NAME} down`);
    void (currentLab?.down() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
