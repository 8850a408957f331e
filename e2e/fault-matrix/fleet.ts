import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { SimControl } from '@sts/app-venue-sim';
import { TestOperator } from '@sts/testing';
import { freePort, ManagedProcess } from './processes';
import type { PrivateServices } from './private-services';

const ROOT = resolve(__dirname, '../..');

export type Service = 'venue-sim' | 'budget' | 'gateway' | 'notifier' | 'worker';

/**
 * Builds the services and copies dist/ to a private directory under tmp/, so
 * another engineer's rebuild cannot change the files under running services
 * (node_modules still resolves from there: tmp/ is in the repository).
 * `FAULT_MATRIX_SOURCE=head` (or any commit) builds that commit instead of
 * the working tree, from a `git archive` copy: for runs while others have
 * work in progress that does not start, and to see a fault fail before a fix.
 */
function buildPrivateDist(): string {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const copy = mkdtempSync(join(ROOT, 'tmp', 'fault-matrix-dist-'));
  const source = process.env['FAULT_MATRIX_SOURCE'] ?? 'worktree';
  if (source !== 'worktree') {
    const revision = execFileSync(
      'git',
      ['rev-parse', '--verify', `${source === 'head' ? 'HEAD' : source}^{commit}`],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    ).trim();
    execFileSync('sh', ['-c', `git archive ${revision} | tar -x -C '${copy}'`], { cwd: ROOT });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    execFileSync(process.execPath, [join(copy, 'tools/build.mjs'), '--quiet'], { cwd: copy });
    return copy;
  }
  execFileSync(process.execPath, [join(ROOT, 'tools/build.mjs'), '--quiet'], { cwd: ROOT });
  cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
  return copy;
}

const MAINS: Record<Service, string> = {
  'venue-sim': 'dist/apps/venue-sim/src/main.js',
  budget: 'dist/apps/budget/src/main.js',
  gateway: 'dist/apps/gateway/src/main.js',
  notifier: 'dist/apps/notifier/src/main.js',
  worker: 'dist/apps/worker/src/main.js',
};

/** Each service's metrics and health listener port setting. */
const METRICS_PORT: Record<Service, string> = {
  'venue-sim': 'VENUE_SIM_METRICS_PORT',
  budget: 'BUDGET_METRICS_PORT',
  gateway: 'GATEWAY_METRICS_PORT',
  notifier: 'NOTIFIER_METRICS_PORT',
  worker: 'WORKER_METRICS_PORT',
};

export interface FleetProcess {
  id: string;
  service: Service;
  process: ManagedProcess;
  /** `http://127.0.0.1:<port>`: its /metrics, /livez and /readyz. */
  metricsUrl: string;
  /** The service's own JSON log (LOG_FILE). */
  logFile: string;
}

/**
 * The whole fleet as child processes of the spec, on the suite's private
 * Postgres, NATS and Redis: the venue simulator (seeded, manual time),
 * budget service, gateway, notifier and two workers.
 */
export class Fleet {
  readonly kek = randomBytes(32).toString('base64');
  readonly webhookKek = randomBytes(32).toString('base64');
  private distCopy = '';
  private readonly cwd: string;
  readonly processes: FleetProcess[] = [];
  env: Record<string, string> = {};
  simUrl = '';
  gatewayUrl = '';
  notifierUrl = '';
  sim!: SimControl;
  readonly operator = new TestOperator(() => ({ ...this.env, LOG_LEVEL: 'warn' }));
  private workerCount = 0;

  constructor(
    private readonly services: PrivateServices,
    readonly logDir: string,
    private readonly seed: number,
  ) {
    this.cwd = join(logDir, 'cwd');
    mkdirSync(this.cwd, { recursive: true });
  }

  async start(workers = 2): Promise<void> {
    this.distCopy = buildPrivateDist();
    const [simPort, gatewayPort, notifierPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    this.simUrl = `http://127.0.0.1:${simPort}`;
    this.gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    this.notifierUrl = `http://127.0.0.1:${notifierPort}`;
    this.sim = new SimControl(this.simUrl);
    this.env = {
      DATABASE_URL: this.services.databaseUrl,
      NATS_URL: this.services.natsUrl,
      REDIS_URL: this.services.redisUrl,
      NATS_PREFIX: 'fm',
      REDIS_PREFIX: 'fm:',
      CREDENTIALS_KEK: this.kek,
      WEBHOOK_SECRETS_KEK: this.webhookKek,
      VENUE_SIM_URL: this.simUrl,
      LOG_LEVEL: 'info',
      OPERATOR_ID: 'fault-matrix',
    };
    const sim = await this.spawn('venue-sim', 'venue-sim', {
      VENUE_SIM_PORT: String(simPort),
      VENUE_SIM_SEED: String(this.seed),
      VENUE_SIM_TICK_MS: '0',
    });
    await sim.process.waitReady(async () => (await fetch(`${this.simUrl}/control/state`)).ok);
    const budget = await this.spawn('budget', 'budget', { BUDGET_SWEEP_INTERVAL_MS: '1000' });
    await this.waitForLog(budget, 'budget service listening');
    const gateway = await this.spawn('gateway', 'gateway', {
      GATEWAY_PORT: String(gatewayPort),
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_RATE_LIMIT_PER_S: '100000',
    });
    const notifier = await this.spawn('notifier', 'notifier', {
      NOTIFIER_PORT: String(notifierPort),
      NOTIFIER_HOST: '127.0.0.1',
    });
    await gateway.process.waitReady(
      async () => (await fetch(`${this.gatewayUrl}/healthz`)).ok,
      30_000,
    );
    await notifier.process.waitReady(
      async () => (await fetch(`${this.notifierUrl}/healthz`)).ok,
      30_000,
    );
    for (let i = 0; i < workers; i += 1) {
      await this.addWorker();
    }
  }

  /** A further worker replica (a new worker id, as a restarted pod gets). */
  async addWorker(): Promise<FleetProcess> {
    this.workerCount += 1;
    const id = `fm-w${this.workerCount}`;
    const worker = await this.spawn('worker', id, {
      WORKER_ID: id,
      LOG_LEVEL: 'debug',
      WORKER_LEASE_TTL_MS: '2000',
      WORKER_TAKEOVER_SCAN_MS: '250',
      WORKER_MAINTENANCE_POLL_MS: '500',
      WORKER_SHUTDOWN_GRACE_MS: '3000',
    });
    await this.waitForLog(worker, '"msg":"worker started"');
    return worker;
  }

  liveWorkers(): FleetProcess[] {
    return this.processes.filter((p) => p.service === 'worker' && p.process.running);
  }

  byService(service: Service): FleetProcess {
    const found = this.processes.find((p) => p.service === service);
    if (!found) {
      throw new Error(`no ${service} in the fleet`);
    }
    return found;
  }

  /** Starts a stopped fleet process again with the same settings. */
  async restart(entry: FleetProcess): Promise<void> {
    entry.process.start();
    if (entry.service === 'budget') {
      await this.waitForLog(entry, 'budget service listening', true);
    }
  }

  private async spawn(
    service: Service,
    id: string,
    extra: Record<string, string>,
  ): Promise<FleetProcess> {
    const logFile = join(this.logDir, `${id}.log`);
    const metricsPort = await freePort();
    const process = new ManagedProcess({
      name: id,
      command: globalThis.process.execPath,
      args: ['--enable-source-maps', join(this.distCopy, MAINS[service])],
      cwd: this.cwd,
      env: {
        ...this.env,
        LOG_FILE: logFile,
        [METRICS_PORT[service]]: String(metricsPort),
        ...extra,
      },
      logFile: join(this.logDir, `${id}.out`),
    });
    process.start();
    const entry = { id, service, process, logFile, metricsUrl: `http://127.0.0.1:${metricsPort}` };
    this.processes.push(entry);
    return entry;
  }

  /** Waits for a log line (after a restart: one written by the new run). */
  private async waitForLog(entry: FleetProcess, text: string, newOnly = false): Promise<void> {
    const before = newOnly ? this.logOf(entry).split(text).length - 1 : 0;
    await entry.process.waitReady(() => this.logOf(entry).split(text).length - 1 > before, 20_000);
  }

  logOf(entry: FleetProcess): string {
    return existsSync(entry.logFile) ? readFileSync(entry.logFile, 'utf8') : '';
  }

  async stop(): Promise<void> {
    // Workers first; SIGTERM so every service flushes its log.
    for (const entry of [...this.processes].reverse()) {
      await entry.process.stop('SIGTERM', 6_000);
    }
    if (this.distCopy) {
      rmSync(this.distCopy, { recursive: true, force: true });
    }
  }
}
