import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDataSource, runMigrations } from '@sts/persistence';
import { delay, freePort, ManagedProcess } from './processes';

const POSTGRES_BIN = process.env['FAULT_MATRIX_POSTGRES'] ?? '/usr/local/bin/postgres';
const INITDB_BIN = process.env['FAULT_MATRIX_INITDB'] ?? '/usr/local/bin/initdb';
const NATS_BIN = process.env['FAULT_MATRIX_NATS'] ?? '/usr/sbin/nats-server';
const REDIS_BIN = process.env['FAULT_MATRIX_REDIS'] ?? '/usr/bin/redis-server';

export type Dependency = 'postgres' | 'nats' | 'redis';

/** Postgres refuses to run as root: as root, the private cluster runs as the `postgres` user. */
function postgresIdentity(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) {
    return {};
  }
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** Sends `send` (if any) to a TCP port and resolves with the first chunk of the answer. */
function tcpProbe(port: number, send?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('probe timeout'));
    }, 1000);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('connect', () => {
      if (send) {
        socket.write(send);
      }
    });
    socket.once('data', (data) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(data.toString());
    });
  });
}

/**
 * Postgres, NATS (JetStream) and Redis of the suite's own, on free ports in a
 * temporary directory, so a fault can stop and start them without touching
 * the machine's shared services. A restart keeps the port and the data
 * directory (Redis runs without persistence, as a cache node would).
 */
export class PrivateServices {
  readonly dir = mkdtempSync(join(tmpdir(), 'sts-fault-matrix-'));
  readonly processes = new Map<Dependency, ManagedProcess>();
  readonly ports: Record<Dependency, number> = { postgres: 0, nats: 0, redis: 0 };
  readonly database = 'sts';

  constructor(private readonly logDir: string) {}

  get databaseUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.ports.postgres}/${this.database}`;
  }

  get natsUrl(): string {
    return `nats://127.0.0.1:${this.ports.nats}`;
  }

  get redisUrl(): string {
    return `redis://127.0.0.1:${this.ports.redis}`;
  }

  async start(): Promise<void> {
    this.ports.postgres = await freePort();
    this.ports.nats = await freePort();
    this.ports.redis = await freePort();
    await Promise.all([this.startPostgres(), this.startNats(), this.startRedis()]);
  }

  private async startPostgres(): Promise<void> {
    const identity = postgresIdentity();
    const pgDir = join(this.dir, 'pg');
    mkdirSync(pgDir);
    // mkdtemp makes the directory private to us; the postgres user must be able to reach its own.
    chmodSync(this.dir, 0o755);
    if (identity.uid !== undefined) {
      chownSync(pgDir, identity.uid, identity.gid!);
    }
    execFileSync(
      INITDB_BIN,
      ['-D', join(pgDir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
      { ...identity, stdio: 'pipe', cwd: pgDir },
    );
    const postgres = new ManagedProcess({
      name: 'postgres',
      command: POSTGRES_BIN,
      args: [
        '-D',
        join(pgDir, 'data'),
        '-p',
        String(this.ports.postgres),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        // fsync off loses nothing when only the process dies (the OS keeps what was
        // written); synchronous_commit stays on, or a crash would lose acknowledged commits.
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=300',
      ],
      cwd: pgDir,
      logFile: join(this.logDir, 'postgres.log'),
      ...identity,
    });
    this.processes.set('postgres', postgres);
    postgres.start();
    await this.waitReady('postgres');
    const admin = new Client({
      connectionString: `postgres://postgres@127.0.0.1:${this.ports.postgres}/postgres`,
    });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${this.database}`);
    } finally {
      await admin.end();
    }
    const dataSource = createDataSource(this.databaseUrl, 'fault-matrix-migrate');
    await dataSource.initialize();
    try {
      await runMigrations(dataSource);
    } finally {
      await dataSource.destroy();
    }
  }

  private async startNats(): Promise<void> {
    const store = join(this.dir, 'nats');
    mkdirSync(store);
    const nats = new ManagedProcess({
      name: 'nats',
      command: NATS_BIN,
      args: ['-a', '127.0.0.1', '-p', String(this.ports.nats), '-js', '-sd', store],
      logFile: join(this.logDir, 'nats.log'),
    });
    this.processes.set('nats', nats);
    nats.start();
    await this.waitReady('nats');
  }

  private async startRedis(): Promise<void> {
    const redis = new ManagedProcess({
      name: 'redis',
      command: REDIS_BIN,
      args: [
        '--port',
        String(this.ports.redis),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
        '--maxmemory-policy',
        'noeviction',
      ],
      logFile: join(this.logDir, 'redis.log'),
    });
    this.processes.set('redis', redis);
    redis.start();
    await this.waitReady('redis');
  }

  /** Answers on its port (Postgres: a query; NATS: INFO with JetStream; Redis: PONG). */
  async answers(dependency: Dependency): Promise<boolean> {
    switch (dependency) {
      case 'postgres': {
        const client = new Client({
          connectionString: `postgres://postgres@127.0.0.1:${this.ports.postgres}/postgres`,
          connectionTimeoutMillis: 1000,
        });
        try {
          await client.connect();
          await client.query('SELECT 1');
          return true;
        } finally {
          await client.end().catch(() => undefined);
        }
      }
      case 'nats':
        return (await tcpProbe(this.ports.nats)).includes('"jetstream":true');
      case 'redis':
        return (await tcpProbe(this.ports.redis, 'PING\r\n')).startsWith('+PONG');
    }
  }

  private waitReady(dependency: Dependency, timeoutMs = 20_000): Promise<void> {
    return this.processes.get(dependency)!.waitReady(() => this.answers(dependency), timeoutMs);
  }

  /**
   * A real restart: the process is stopped (Postgres by fast shutdown, SIGINT,
   * which ends every session at once as a crash would, where SIGTERM would
   * wait for the fleet's pooled sessions to leave; NATS and Redis by
   * SIGKILL), kept down until `downMs` after the stop began, then started
   * again on the same port and data directory.
   */
  async restart(
    dependency: Dependency,
    downMs: number,
    signal: NodeJS.Signals = dependency === 'postgres' ? 'SIGINT' : 'SIGKILL',
  ): Promise<{ stoppedAt: number; upAt: number; starts: number }> {
    const child = this.processes.get(dependency)!;
    const stoppedAt = Date.now();
    await child.stop(signal);
    await delay(Math.max(0, stoppedAt + downMs - Date.now()));
    // After a SIGKILL, Postgres refuses to start while a backend of the killed postmaster
    // still holds its shared memory; they notice the postmaster's death and leave within
    // moments, so a refused start is tried again (bounded).
    for (let starts = 1; ; starts += 1) {
      child.start();
      try {
        await this.waitReady(dependency);
        return { stoppedAt, upAt: Date.now(), starts };
      } catch (error) {
        if (child.running || starts >= 20) {
          throw error;
        }
        await delay(250);
      }
    }
  }

  async stop(): Promise<void> {
    for (const [dependency, child] of this.processes) {
      await child.stop(dependency === 'postgres' ? 'SIGINT' : 'SIGTERM', 5_000);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
