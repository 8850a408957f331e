import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
} from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { PORTS, type HostName, type LabLayout } from './layout';
import { namespacePids } from './network';
import type { Binaries, ProcessEntry } from './services';
import {
  WaitAborted,
  alive,
  getJson,
  httpStatus,
  signal,
  spawnInNamespace,
  userIds,
  waitFor,
} from './shell';

/** Builds the services into the lab's own folder (tools/build.mjs --out): dist/ may change meanwhile. */
export function buildDist(layout: LabLayout): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(layout.root, 'tools', 'build.mjs'), '--quiet', '--out', layout.distDir],
      { cwd: layout.root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`tools/build.mjs exited ${code}: ${output}`)),
    );
  });
}

/** A fresh Postgres cluster owned by the postgres user, trusting the lab's subnet. */
export function initPostgres(layout: LabLayout, binaries: Binaries): void {
  const pgDir = join(layout.stateDir, 'pg');
  const ids = userIds('postgres');
  mkdirSync(pgDir, { recursive: true });
  chownSync(pgDir, ids.uid, ids.gid);
  const data = join(pgDir, 'data');
  const result = spawnSync(
    binaries.initdb,
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    { ...ids, cwd: pgDir, encoding: 'utf8' },
  );
  if (result.status !== 0) {
    throw new Error(`initdb failed: ${result.stderr || result.error?.message}`);
  }
  appendFileSync(join(data, 'pg_hba.conf'), `host all all ${layout.subnet} trust\n`);
}

/** Creates database `sts` and runs the migrations (the ops tool of the lab's build). */
export async function createDatabase(layout: LabLayout): Promise<void> {
  const admin = new Client({
    connectionString: layout.databaseUrl.replace(/\/sts$/, '/postgres'),
    connectionTimeoutMillis: 3_000,
  });
  await admin.connect();
  try {
    const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'sts'`);
    if (exists.rowCount === 0) {
      await admin.query('CREATE DATABASE sts');
    }
  } finally {
    await admin.end();
  }
  const migrate = spawnSync(
    process.execPath,
    [join(layout.distDir, 'apps/ops/src/main.js'), 'db', 'migrate'],
    {
      cwd: join(layout.stateDir, 'run'),
      env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: layout.databaseUrl, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  if (migrate.status !== 0) {
    throw new Error(`ops db migrate failed: ${migrate.stdout}${migrate.stderr}`);
  }
}

export async function postgresAnswers(layout: LabLayout, database = 'postgres'): Promise<boolean> {
  const client = new Client({
    connectionString: layout.databaseUrl.replace(/\/sts$/, `/${database}`),
    connectionTimeoutMillis: 1_000,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function redisAnswers(layout: LabLayout): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: layout.address('infra'), port: PORTS.redis });
    const done = (answer: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), 1_000);
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** How many times `text` is in the log (a restarted service's line is one more). */
export function logCount(file: string | undefined, text: string): number {
  if (!file || !existsSync(file)) {
    return 0;
  }
  return readFileSync(file, 'utf8').split(text).length - 1;
}

const STARTED_LINE: Partial<Record<string, string>> = {
  worker: '"msg":"worker started"',
  budget: 'budget service listening',
};

/** What must hold for the process to be ready (a log line counts only if new since `before`). */
export function readiness(layout: LabLayout, entry: ProcessEntry): () => Promise<boolean> {
  const address = layout.address(entry.host);
  const line = STARTED_LINE[entry.service];
  const before = line ? logCount(entry.log, line) : 0;
  switch (entry.service) {
    case 'postgres':
      return () => postgresAnswers(layout);
    case 'redis':
      return () => redisAnswers(layout);
    case 'nats':
      return async () =>
        (await getJson(`http://${address}:${PORTS.natsMonitor}/varz`)) !== undefined;
    case 'venue-sim':
      return async () => (await httpStatus(`${layout.simUrl}/control/state`)) === 200;
    case 'gateway':
      return async () => (await httpStatus(`http://${address}:${PORTS.gateway}/healthz`)) === 200;
    case 'notifier':
      return async () => (await httpStatus(`http://${address}:${PORTS.notifier}/healthz`)) === 200;
    case 'worker':
    case 'budget':
      return () => Promise.resolve(logCount(entry.log, line!) > before);
  }
}

/** Starts the process (its pid goes into `entry`) and returns its readiness check. */
export function start(layout: LabLayout, entry: ProcessEntry): () => Promise<boolean> {
  const ready = readiness(layout, entry);
  entry.pid = spawnInNamespace(layout.namespace(entry.host), entry.spawn);
  return ready;
}

/** Waits for `ready`, failing at once (naming its logs) if the process exits first. */
export function waitReady(
  entry: ProcessEntry,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  return waitFor(
    `${entry.host} ${entry.service} ready`,
    async () => {
      if (!alive(entry.pid)) {
        throw new WaitAborted(
          `it exited; see ${entry.spawn.out}${entry.log ? ` and ${entry.log}` : ''}`,
        );
      }
      return ready();
    },
    timeoutMs,
    250,
  );
}

/** The process started from `entry` still runs (in the host's namespace: pids are reused). */
export function entryAlive(layout: LabLayout, entry: ProcessEntry): boolean {
  return alive(entry.pid) && inNamespace(entry.pid!, layout.namespace(entry.host));
}

/** Whether process `pid` lives in network namespace `ns` (`ip netns add`'s /run/netns/<ns>). */
function inNamespace(pid: number, ns: string): boolean {
  try {
    const link = readlinkSync(`/proc/${pid}/ns/net`);
    return link === `net:[${statSync(`/run/netns/${ns}`).ino}]`;
  } catch {
    return false;
  }
}

/** Sends `name` to every process of the host's namespace and waits until none is left. */
export async function killNamespace(
  layout: LabLayout,
  host: HostName,
  name: NodeJS.Signals = 'SIGKILL',
): Promise<number[]> {
  const ns = layout.namespace(host);
  const killed = namespacePids(ns);
  signal(killed, name);
  await waitFor(
    `every process of ${ns} gone`,
    () => {
      const left = namespacePids(ns).filter((pid) => alive(pid));
      signal(left, 'SIGKILL');
      return left.length === 0;
    },
    15_000,
    100,
  );
  return killed;
}

/** SIGKILL to one process, waiting until it is gone. */
export async function killEntry(layout: LabLayout, entry: ProcessEntry): Promise<void> {
  if (!entryAlive(layout, entry)) {
    return;
  }
  signal([entry.pid!], 'SIGKILL');
  await waitFor(`${entry.host} ${entry.service} gone`, () => !alive(entry.pid), 10_000, 50);
}
