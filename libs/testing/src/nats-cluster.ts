import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NatsReplicasError } from '@sts/platform';

export interface NatsCluster {
  /** Server 1's client URL. */
  url: string;
  /** Starts server `n` (1..3) where `startNatsCluster` was told to hold it back. */
  startServer(n: number): void;
  /** Freezes server `n` (SIGSTOP): its connections stay open and answer nothing. */
  pause(n: number): void;
  /** Thaws a paused server (SIGCONT). */
  resume(n: number): void;
  stop(): Promise<void>;
}

/**
 * Three nats-server processes of this machine in one JetStream cluster, on
 * ports of their own; `only` starts some of them (the rest with `startServer`).
 */
export async function startNatsCluster(only: number[] = [1, 2, 3]): Promise<NatsCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'sts-nats-cluster-'));
  const base = await freeBase();
  const routes = [1, 2, 3].map((n) => `nats://127.0.0.1:${base + 10 + n}`).join(',');
  const servers = new Map<number, ChildProcess>();
  const startServer = (n: number): void => {
    servers.set(
      n,
      spawn(
        'nats-server',
        [
          ...['-p', String(base + n), '-js', '-sd', join(dir, `n${n}`), '-n', `n${n}`],
          ...['--cluster_name', 'sts-test', '-cluster', `nats://127.0.0.1:${base + 10 + n}`],
          ...['-routes', routes],
        ],
        { stdio: 'ignore' },
      ),
    );
  };
  const signal = (n: number, name: NodeJS.Signals): void => {
    servers.get(n)?.kill(name);
  };
  only.forEach(startServer);
  const stop = async (): Promise<void> => {
    await Promise.all(
      [...servers.values()].map(
        (server) =>
          new Promise<void>((resolve) => {
            if (server.exitCode !== null) {
              return resolve();
            }
            server.once('exit', () => resolve());
            server.kill('SIGCONT');
            server.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    url: `127.0.0.1:${base + 1}`,
    startServer,
    pause: (n) => signal(n, 'SIGSTOP'),
    resume: (n) => signal(n, 'SIGCONT'),
    stop,
  };
}

/** Retries `work` while the cluster elects its JetStream meta leader (a few seconds after start). */
export async function whenClusterReady<T>(work: () => Promise<T>): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      const electing = !(error instanceof NatsReplicasError) && Date.now() < until;
      if (!electing) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The six ports a cluster takes from its base: clients base+1..3, routes base+11..13. */
const OFFSETS = [1, 2, 3, 11, 12, 13];

/**
 * A base whose six ports are free now, below the kernel's ephemeral range
 * (32768 up): a port there can be taken by any outgoing connection between
 * a check and the server's bind, which left a node unable to listen and its
 * cluster refusing connections in a loaded CI run.
 */
async function freeBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await Promise.all(OFFSETS.map((offset) => portFree(base + offset)));
    if (free.every(Boolean)) {
      return base;
    }
  }
  throw new Error('no free ports for a NATS cluster between 20000 and 32013');
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
