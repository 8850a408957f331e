import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { deadManBucket } from '@sts/contracts';
import { runOps } from '@sts/operations';
import { connectNats, createLogger, sleep, type Logger, type NatsConnection } from '@sts/platform';
import pino from 'pino';
import { startNatsCluster, whenClusterReady } from '@sts/testing';
import { eventually } from '../../test/eventually';
import { ScriptedDeadMan, ScriptedVenue } from '../../test/support/scripted-venue';
import type { WorkerConfig } from '../config/load-worker-config';
import { WorkerMetrics } from '../metrics/worker-metrics';
import { AccountSession } from './account-session';
import { DeadManBoard } from './dead-man-board';
import { deadManPolicy } from './dead-man-wiring';

const NATS_URL = 'nats://127.0.0.1:4222';
const logger = createLogger('spec', 'silent');

/**
 * The operators' view of the switches, end to end over the machine's NATS:
 * a worker's account sessions keep their switches (the scripted venue
 * answers), the worker's board puts each status into the KV bucket, and
 * `ops dead-man list` reads it back.
 */
describe('ops dead-man list', () => {
  const natsPrefix = `t${randomBytes(5).toString('hex')}`;
  const env = { NATS_URL, NATS_PREFIX: natsPrefix, LOG_LEVEL: 'silent' };
  const closers: Array<() => Promise<unknown>> = [];
  const sessions: AccountSession[] = [];
  let nats: NatsConnection;

  beforeAll(async () => {
    nats = await connectNats({ url: NATS_URL, name: 'dead-man-board-spec' });
  });

  afterAll(async () => {
    for (const session of sessions) {
      await session.close();
    }
    for (const close of closers.reverse()) {
      await close();
    }
    const jsm = await jetstreamManager(nats);
    await jsm.streams.delete(`KV_${deadManBucket(natsPrefix).name}`).catch(() => false);
    await nats.close();
  });

  /** One account of worker `workerId` whose venue answers with `deadMan` (null: no switch). */
  async function session(workerId: string, venue: 'hyperliquid' | 'paradex', wallet: string) {
    const config = { settings: { natsPrefix, deadManTimeoutMs: 15_000 }, workerId };
    const policy = deadManPolicy(
      config as WorkerConfig,
      nats,
      new WorkerMetrics(),
      logger,
      closers,
    );
    const client = new ScriptedVenue(venue);
    const deadMan = venue === 'hyperliquid' ? new ScriptedDeadMan() : null;
    client.deadManSwitch = deadMan;
    const opened = new AccountSession(venue, wallet, () => Promise.resolve(client), logger, {
      ...policy,
      graceMs: 10,
    });
    await opened.connect();
    sessions.push(opened);
    const listen = () =>
      opened.listen(`t-${workerId}`, { onFill: () => undefined, onOrder: () => undefined });
    return { listen, deadMan };
  }

  const list = async (...args: string[]) => {
    const result = await runOps(['dead-man', 'list', ...args], env);
    expect(result.exitCode).toBe(0);
    return result.output as Array<Record<string, unknown>>;
  };

  it('lists nothing before any worker held a trade (no bucket yet)', async () => {
    expect(await list()).toEqual([]);
  });

  it("prints each account's switch per worker: armed, refused with the venue's reason, none", async () => {
    const armedBefore = Date.now();
    const first = await session('worker-a', 'hyperliquid', '0xAccount1');
    first.listen();
    const second = await session('worker-b', 'hyperliquid', '0xAccount1');
    second.listen();
    const refused = await session('worker-a', 'hyperliquid', '0xAccount2');
    refused.deadMan!.answer = {
      refuse: 'Cannot set scheduled cancel time until enough volume traded',
    };
    refused.listen();
    (await session('worker-a', 'paradex', '0xAccount3')).listen();

    const rows = await eventually(async () => {
      const listed = await list();
      return listed.length === 4 && listed;
    }, 'four rows on the board');
    expect(
      rows.map((row) => [row['venue'], row['wallet'], row['worker_id'], row['state']]),
    ).toEqual([
      ['hyperliquid', '0xAccount1', 'worker-a', 'armed'],
      ['hyperliquid', '0xAccount1', 'worker-b', 'armed'],
      ['hyperliquid', '0xAccount2', 'worker-a', 'unavailable'],
      ['paradex', '0xAccount3', 'worker-a', 'none'],
    ]);
    const armed = rows[0]!;
    expect(Date.parse(String(armed['armed_until']))).toBeGreaterThanOrEqual(armedBefore + 15_000);
    expect(Date.parse(String(armed['last_refresh_at']))).toBeGreaterThanOrEqual(armedBefore);
    expect(armed['reason']).toBeNull();
    expect(rows[2]).toMatchObject({
      reason: 'Cannot set scheduled cancel time until enough volume traded',
      armed_until: null,
      timeout_ms: 15_000,
    });
    expect(await list('--venue', 'paradex')).toHaveLength(1);
  });

  it('drops the row of an account no trade of the worker holds any more (disarmed)', async () => {
    const held = await session('worker-c', 'hyperliquid', '0xAccount4');
    const leave = held.listen();
    await eventually(
      async () => (await list()).some((row) => row['worker_id'] === 'worker-c'),
      'worker-c on the board',
    );
    leave();
    await eventually(
      async () => !(await list()).some((row) => row['worker_id'] === 'worker-c'),
      'worker-c off the board',
    );
    expect(held.deadMan!.disarmings).toHaveLength(1);
  });
});

/**
 * NATS_REPLICAS raised on a cluster whose bucket an earlier setting made:
 * the streams are updated at boot, and so is the bucket (creating a bucket
 * that exists changes nothing of it).
 */
describe('the dead-man bucket on a NATS cluster', () => {
  jest.setTimeout(90_000);

  it('is brought to NATS_REPLICAS copies when it was made with fewer', async () => {
    const cluster = await startNatsCluster();
    const natsPrefix = `t${randomBytes(5).toString('hex')}`;
    const bucketStream = `KV_${deadManBucket(natsPrefix).name}`;
    const boards: DeadManBoard[] = [];
    const warnings = warningsKept();
    let nats: NatsConnection | undefined;
    try {
      const connected = await whenClusterReady(() =>
        connectNats({ url: cluster.url, name: 'dead-man-replicas-spec' }),
      );
      nats = connected;
      const jsm = await whenClusterReady(() => jetstreamManager(connected, { timeout: 1_000 }));
      const replicasOf = async () =>
        (await jsm.streams.info(bucketStream).catch(() => null))?.config.num_replicas;
      const armed = {
        state: 'armed',
        armedUntilMs: Date.now() + 15_000,
        lastRefreshAtMs: Date.now(),
        reason: null,
        timeoutMs: 15_000,
      } as const;
      for (const [workerId, replicas] of [
        ['w1', 1],
        ['w2', 3],
      ] as const) {
        const board = new DeadManBoard(connected, natsPrefix, workerId, warnings.logger, replicas);
        boards.push(board);
        // Shown again at every poll: a write that failed (a stream leader moving on a loaded
        // machine) is retried by the next, as a worker's next refresh would.
        let seen: number | undefined;
        await eventually(
          async () => {
            board.show('hyperliquid', '0xabc', armed);
            seen = await replicasOf();
            return seen === replicas;
          },
          `${replicas} copies`,
          { timeoutMs: 30_000, intervalMs: 500, last: () => ({ seen, warnings: warnings.lines }) },
        );
      }
      expect(await replicasOf()).toBe(3);
      // A write of the older worker fails (the bucket loses its quorum for a moment): the
      // bucket it opens again afterwards is left at the newer worker's count, not undone.
      const [older] = boards;
      cluster.pause(2);
      cluster.pause(3);
      older.show('hyperliquid', '0xdef', armed);
      await sleep(1_500);
      cluster.resume(2);
      cluster.resume(3);
      await whenClusterReady(async () => {
        older.show('hyperliquid', '0xdef', { ...armed, lastRefreshAtMs: Date.now() });
        await eventually(async () => (await replicasOf()) !== undefined, 'the bucket answering', {
          timeoutMs: 10_000,
        });
      });
      await sleep(1_000);
      expect(await replicasOf()).toBe(3);
    } finally {
      boards.forEach((board) => board.close());
      await nats?.close();
      await cluster.stop();
    }
  });
});

/** A logger keeping the boards' warnings, for a timeout to name them. */
function warningsKept(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line.trim()) });
  return { logger, lines };
}
