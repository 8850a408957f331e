/**
 * Notifier figures on this machine's real Postgres and NATS: connections held
 * and delivery latency from NATS publish to client receipt with 5,000 clients.
 *
 * Run (the notifier runs as its own process, as in production, so it gets its
 * own core; the bench process holds every client socket):
 *   node tools/build.mjs && node dist/bench/notifier.bench.js
 * Knobs (env): BENCH_CLIENTS (5000), BENCH_USERS (250), BENCH_LIFECYCLE_EVENTS (2000),
 * BENCH_LIFECYCLE_RATE (500 per s), BENCH_BROADCASTS (20), BENCH_DEADLINE_S (240).
 * Each side holds one fd per client: check `ulimit -n` is above BENCH_CLIENTS + 100
 * (raise it with `ulimit -n 20000` in the shell that runs the bench).
 *
 * Figures are measured in the bench process with one clock: the send time is
 * taken just before the publish, the receipt time first thing in each socket's
 * message handler. The bench handles its 5,000 sockets on one thread, so a
 * broadcast's tail includes the bench's own work on the sockets ahead in line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Client } from 'pg';
import WebSocket from 'ws';
import {
  encodeEnvelope,
  envelope,
  eventsStream,
  MAINTENANCE_CHANGED,
  maintenanceChangedSubject,
  TRADE_LIFECYCLE,
  tradeLifecycleSubject,
} from '@sts/contracts';
import { createApiKey, createUser, OpsContext } from '@sts/operations';
import { createTestDatabase, testNamespace, type TestDatabase } from '@sts/testing';
import { sleep } from '@sts/platform';
import { percentile } from './run-bench';

const numberFrom = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

const CLIENTS = numberFrom('BENCH_CLIENTS', 5000);
const USERS = numberFrom('BENCH_USERS', 250);
const LIFECYCLE_EVENTS = numberFrom('BENCH_LIFECYCLE_EVENTS', 2000);
const LIFECYCLE_RATE = numberFrom('BENCH_LIFECYCLE_RATE', 500);
const BROADCASTS = numberFrom('BENCH_BROADCASTS', 20);
const BROADCAST_GAP_MS = 500;
const DEADLINE_S = numberFrom('BENCH_DEADLINE_S', 240);
const CONNECT_CONCURRENCY = 100;

interface BenchUser {
  userId: string;
  apiKey: string;
  tradeId: string;
}

function summary(name: string, latencies: number[], expected: number): string {
  const sorted = Float64Array.from(latencies).sort();
  const values = Array.from(sorted);
  return (
    `${name}: ${latencies.length}/${expected} delivered, latency p50 ${percentile(values, 50).toFixed(2)} ms, ` +
    `p99 ${percentile(values, 99).toFixed(2)} ms, max ${(values.at(-1) ?? NaN).toFixed(2)} ms`
  );
}

/** Users, API keys and one trade each, written the way the operator tool and the gateway write them. */
async function seed(database: TestDatabase, env: Record<string, string>): Promise<BenchUser[]> {
  const context = new OpsContext(env, 'bench');
  const db = new Client({ connectionString: database.url });
  await db.connect();
  try {
    const users: BenchUser[] = [];
    for (let index = 0; index < USERS; index += 1) {
      const wallet = `0x${randomBytes(20).toString('hex')}`;
      const user = await createUser(context, { wallet });
      const key = await createApiKey(context, { user: user.user_id, scopes: 'trades:read' });
      const tradeId = randomUUID();
      await db.query(
        `INSERT INTO trades (id, user_id, market, long_exchange, long_wallet, short_exchange, short_wallet,
           maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet, cap_group,
           target_spread, spread_condition, target_size, max_slippage, status, rate_budget, idempotency_key)
         VALUES ($1, $2, 'BTC', 'hyperliquid', $3, 'paradex', $3, 'long', 'hyperliquid', $3, 'paradex', $3,
           'hyperliquid', '5', 'gte', '0.01', '0.001', 'active', 10, $4)`,
        [tradeId, user.user_id, wallet, `bench-${tradeId}`],
      );
      users.push({ userId: user.user_id, apiKey: key.api_key, tradeId });
    }
    return users;
  } finally {
    await db.end();
    await context.close();
  }
}

/** Starts the built notifier as a child process and reads its port from the startup log line. */
async function spawnNotifier(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(__dirname, '../apps/notifier/src/main.js')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('notifier did not start in 20 s')), 20_000);
    child.once('exit', (code) => reject(new Error(`notifier exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number; level?: string };
        if (entry.msg === 'notifier listening' && entry.port) {
          clearTimeout(timer);
          resolve(entry.port);
        } else if (entry.level === 'error' || entry.level === 'fatal') {
          console.error(line);
        }
      } catch {
        console.error(line);
      }
    });
  });
  return { child, port };
}

const rssMiB = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
};

async function main(): Promise<void> {
  const deadline = setTimeout(() => {
    console.error(`bench deadline of ${DEADLINE_S} s passed; stopping`);
    process.exit(2);
  }, DEADLINE_S * 1000);
  deadline.unref();

  const database = await createTestDatabase();
  const natsPrefix = testNamespace().natsPrefix;
  const env = {
    DATABASE_URL: database.url,
    NATS_PREFIX: natsPrefix,
    NOTIFIER_PORT: '0',
    NOTIFIER_HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    NOTIFIER_INSTANCE_ID: 'notifier-bench',
    // Webhook delivery runs as in a deployment (no endpoint here: one query an event); its
    // signing secrets are opened with their own key.
    WEBHOOK_SECRETS_KEK: randomBytes(32).toString('base64'),
    // Five times the default heartbeat rate (and the default 3 s credential
    // re-check), so the periodic sweeps over every socket fall inside the
    // measured phases rather than between them.
    NOTIFIER_HEARTBEAT_INTERVAL_MS: process.env['NOTIFIER_HEARTBEAT_INTERVAL_MS'] ?? '3000',
    NOTIFIER_AUTH_RECHECK_MS: process.env['NOTIFIER_AUTH_RECHECK_MS'] ?? '3000',
  };
  let notifier: ChildProcess | undefined;
  let nats: NatsConnection | undefined;
  const sockets: WebSocket[] = [];
  try {
    const users = await seed(database, env);
    const started = await spawnNotifier(env);
    notifier = started.child;
    const url = `ws://127.0.0.1:${started.port}/api/v1/ws`;
    const baselineRss = rssMiB(notifier.pid!);

    // Receipt bookkeeping: message id -> send time, and every measured latency.
    const sentAt = new Map<string, number>();
    const lifecycleLatencies: number[] = [];
    const broadcastLatencies: number[] = [];
    const onFrame = (data: WebSocket.RawData): void => {
      const receivedAt = performance.now();
      const text = data.toString();
      // Only events are timed; the id sits at a fixed key, no need to parse the whole frame first.
      const at = text.indexOf('"event_id":"');
      if (at < 0) {
        return;
      }
      const eventId = text.slice(at + 12, at + 48);
      const sent = sentAt.get(eventId);
      if (sent === undefined) {
        return;
      }
      (text.includes('"event":"maintenance"') ? broadcastLatencies : lifecycleLatencies).push(
        receivedAt - sent,
      );
    };

    // Connect every client (header auth), then subscribe: even sockets to their
    // user's trade, odd ones to all of the user's trades.
    const connectStarted = performance.now();
    let next = 0;
    let subscribed = 0;
    await Promise.all(
      Array.from({ length: CONNECT_CONCURRENCY }, async () => {
        for (let index = next++; index < CLIENTS; index = next++) {
          const user = users[index % users.length]!;
          const socket = new WebSocket(url, {
            headers: { 'x-api-key': user.apiKey },
            perMessageDeflate: false,
          });
          await new Promise<void>((resolve, reject) => {
            socket.once('error', reject);
            socket.on('message', function first(data) {
              const message = JSON.parse(data.toString()) as { type: string };
              if (message.type === 'authenticated') {
                socket.send(
                  JSON.stringify({
                    op: 'subscribe',
                    subscription: 'trades',
                    ...(index % 2 === 0 ? { params: { trade_id: user.tradeId } } : {}),
                  }),
                );
              } else if (message.type === 'subscribed') {
                subscribed += 1;
                socket.off('message', first);
                socket.on('message', onFrame);
                resolve();
              } else {
                reject(new Error(`unexpected answer ${data.toString()}`));
              }
            });
          });
          sockets.push(socket);
        }
      }),
    );
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    const health = (await (await fetch(`http://127.0.0.1:${started.port}/healthz`)).json()) as {
      connections: number;
    };
    const heldRss = rssMiB(notifier.pid!);
    console.log(
      `connections held: ${health.connections} on the notifier (${sockets.filter((s) => s.readyState === WebSocket.OPEN).length} open here, ${subscribed} subscribed), ` +
        `opened and subscribed in ${connectSeconds.toFixed(1)} s`,
    );
    console.log(
      `notifier RSS: ${baselineRss.toFixed(0)} MiB idle -> ${heldRss.toFixed(0)} MiB with ${health.connections} sockets ` +
        `(~${(((heldRss - baselineRss) * 1024) / Math.max(1, health.connections)).toFixed(1)} KiB per socket)`,
    );

    nats = await connect({ servers: '127.0.0.1:4222', name: 'notifier-bench' });
    const js = jetstream(nats);
    const socketsPerUser = CLIENTS / users.length;

    // 1. Lifecycle events at a steady rate, each to its owner's sockets (published as the workers do).
    const pending: Promise<unknown>[] = [];
    const phaseStarted = performance.now();
    for (let index = 0; index < LIFECYCLE_EVENTS; index += 1) {
      const dueAt = phaseStarted + (index * 1000) / LIFECYCLE_RATE;
      const wait = dueAt - performance.now();
      if (wait > 1) {
        await sleep(wait);
      }
      const user = users[index % users.length]!;
      const message = envelope(TRADE_LIFECYCLE, {
        event: index % 2 === 0 ? 'trade.paused' : 'trade.resumed',
        trade_id: user.tradeId,
        user_id: user.userId,
        status: index % 2 === 0 ? 'paused' : 'active',
        timestamp: new Date().toISOString(),
        data: { sequence: index },
      });
      sentAt.set(message.message_id, performance.now());
      pending.push(
        js.publish(tradeLifecycleSubject(natsPrefix, user.tradeId), encodeEnvelope(message), {
          msgID: message.message_id,
        }),
      );
    }
    await Promise.all(pending);
    const expectedLifecycle = Math.round(LIFECYCLE_EVENTS * socketsPerUser);
    for (
      let waited = 0;
      lifecycleLatencies.length < expectedLifecycle && waited < 10_000;
      waited += 50
    ) {
      await sleep(50);
    }

    // 2. Maintenance broadcasts: each one to every socket.
    for (let index = 0; index < BROADCASTS; index += 1) {
      const message = envelope(MAINTENANCE_CHANGED, {
        exchange: 'hyperliquid',
        enabled: index % 2 === 0,
        reason: 'bench',
        updated_by: 'bench',
        updated_at: new Date().toISOString(),
      });
      sentAt.set(message.message_id, performance.now());
      nats.publish(maintenanceChangedSubject(natsPrefix), encodeEnvelope(message));
      await sleep(BROADCAST_GAP_MS);
    }
    const expectedBroadcast = BROADCASTS * CLIENTS;
    for (
      let waited = 0;
      broadcastLatencies.length < expectedBroadcast && waited < 10_000;
      waited += 50
    ) {
      await sleep(50);
    }

    console.log(
      summary(
        `lifecycle events (${LIFECYCLE_EVENTS} at ${LIFECYCLE_RATE}/s, ${socketsPerUser} sockets each)`,
        lifecycleLatencies,
        expectedLifecycle,
      ),
    );
    console.log(
      summary(
        `maintenance broadcasts (${BROADCASTS}, each to all ${CLIENTS} sockets)`,
        broadcastLatencies,
        expectedBroadcast,
      ),
    );
    const stillOpen = sockets.filter((socket) => socket.readyState === WebSocket.OPEN).length;
    console.log(`connections still open at the end: ${stillOpen}/${CLIENTS}`);
  } finally {
    for (const socket of sockets) {
      socket.terminate();
    }
    if (notifier && notifier.exitCode === null) {
      const exited = new Promise((resolve) => notifier!.once('exit', resolve));
      notifier.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (notifier.exitCode === null) {
        notifier.kill('SIGKILL');
      }
    }
    if (nats) {
      const jsm = await jetstreamManager(nats);
      await jsm.streams.delete(eventsStream(natsPrefix).name).catch(() => false);
      await nats.close();
    } else {
      const cleanup = await connect({ servers: '127.0.0.1:4222' });
      await (
        await jetstreamManager(cleanup)
      ).streams
        .delete(eventsStream(natsPrefix).name)
        .catch(() => false);
      await cleanup.close();
    }
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
