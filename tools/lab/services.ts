import { join } from 'node:path';
import { NODE_HOSTS, PORTS, isNodeHost, type HostName, type LabLayout } from './layout';
import { userIds, which, type SpawnSpec } from './shell';

export const NODE_SERVICES = ['venue-sim', 'budget', 'gateway', 'notifier', 'worker'] as const;
export type NodeService = (typeof NODE_SERVICES)[number];
export type ServiceName = 'postgres' | 'redis' | 'nats' | NodeService;

/** One process of the lab: how it is started (revive starts it the same way) and its last pid. */
export interface ProcessEntry {
  host: HostName;
  service: ServiceName;
  spawn: SpawnSpec;
  /** The service's own JSON log (LOG_FILE), for the Node services. */
  log?: string;
  pid?: number;
}

/** What runs where, in start order. */
export const HOST_SERVICES: Record<HostName, ServiceName[]> = {
  infra: ['postgres', 'redis', 'venue-sim'],
  h1: ['nats', 'budget', 'gateway', 'notifier', 'worker'],
  h2: ['nats', 'budget', 'gateway', 'notifier', 'worker'],
  h3: ['nats', 'worker'],
};

const MAINS: Record<NodeService, string> = {
  'venue-sim': 'apps/venue-sim/src/main.js',
  budget: 'apps/budget/src/main.js',
  gateway: 'apps/gateway/src/main.js',
  notifier: 'apps/notifier/src/main.js',
  worker: 'apps/worker/src/main.js',
};

/** The worker's timings (e2e/fault-matrix/fleet.ts's values by default: fast takeovers). */
export interface WorkerTimings {
  /** WORKER_LEASE_TTL_MS (default 2000). */
  leaseTtlMs?: number;
  /** WORKER_LEASE_RENEW_MS (default: the worker's, a third of the TTL). */
  leaseRenewMs?: number;
  /** WORKER_TAKEOVER_SCAN_MS (default 250). */
  takeoverScanMs?: number;
  /** WORKER_MAINTENANCE_POLL_MS (default 500). */
  maintenancePollMs?: number;
  /** WORKER_SHUTDOWN_GRACE_MS (default 3000). */
  shutdownGraceMs?: number;
}

export interface UpOptions {
  worker?: WorkerTimings;
  /** Settings for every Node service of h1..h3 (after the lab's own, so they win). */
  env?: Record<string, string>;
  /** Settings for one kind of service (after `env`). */
  serviceEnv?: Partial<Record<NodeService, Record<string, string>>>;
  /** VENUE_SIM_SEED (default 1). */
  seed?: number;
  /** VENUE_SIM_TICK_MS (default 100; 0 is manual time, moved by the sim's control API). */
  simTickMs?: number;
  /** LOG_LEVEL of the services (default info; workers debug, as the fault matrix runs them). */
  logLevel?: string;
  /** NATS_PREFIX (default sts; REDIS_PREFIX is `<prefix>:`). */
  natsPrefix?: string;
  /** Preload libfaketime into h1..h3's Node services (default: when it is installed). */
  faketime?: boolean;
  /** Leave a failed up as it is, for a look at it (default: take it down, keeping the logs). */
  keepOnFailure?: boolean;
  /** How long up waits for everything to be ready (default 120000 ms). */
  readyTimeoutMs?: number;
}

/** Where Debian's libfaketime package puts the library. */
export const FAKETIME_LIBS = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
];

/**
 * The services' NATS_REPLICAS: 3 (a copy of each stream on every node)
 * unless `env` sets it (a bench may compare 1).
 */
export function natsReplicas(options: UpOptions): number {
  const value = Number(options.env?.['NATS_REPLICAS'] ?? 3);
  if (!Number.isInteger(value) || value < 1 || value > 3) {
    throw new Error(`NATS_REPLICAS ${options.env?.['NATS_REPLICAS']}: 1, 2 or 3 (the lab's nodes)`);
  }
  return value;
}

export interface Binaries {
  node: string;
  postgres: string;
  initdb: string;
  redis: string;
  nats: string;
  setpriv: string;
}

/** The programs the lab runs, found on PATH (or where Debian puts them); names what is missing. */
export function findBinaries(): Binaries {
  const found = {
    node: process.execPath,
    postgres: which('postgres', ['/usr/lib/postgresql/15/bin/postgres']),
    initdb: which('initdb', ['/usr/lib/postgresql/15/bin/initdb']),
    redis: which('redis-server', ['/usr/bin/redis-server']),
    nats: which('nats-server', ['/usr/sbin/nats-server']),
    setpriv: which('setpriv', ['/usr/bin/setpriv']),
  };
  const missing = Object.entries(found).filter(([, path]) => !path);
  if (missing.length > 0) {
    throw new Error(`the lab needs ${missing.map(([name]) => name).join(', ')} on PATH`);
  }
  return found as Binaries;
}

export interface SpecContext {
  layout: LabLayout;
  binaries: Binaries;
  distDir: string;
  kek: string;
  webhookKek: string;
  faketimeLib?: string;
  options: UpOptions;
}

const hostNumber = (host: HostName): string => host.slice(1);

function logPaths(layout: LabLayout, host: HostName, service: ServiceName) {
  return {
    out: join(layout.logDir, `${host}-${service}.out`),
    log: join(layout.logDir, `${host}-${service}.log`),
  };
}

function infraArgv(context: SpecContext, service: 'postgres' | 'redis'): string[] {
  const { layout, binaries } = context;
  const address = layout.address('infra');
  if (service === 'redis') {
    return [
      ...[binaries.redis, '--bind', address, '--port', String(PORTS.redis)],
      ...['--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
      ...['--dir', join(layout.stateDir, 'redis'), '--maxmemory-policy', 'noeviction'],
    ];
  }
  // Postgres refuses to run as root: setpriv drops to the postgres user inside the namespace.
  const { uid, gid } = userIds('postgres');
  return [
    ...[binaries.setpriv, `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups'],
    ...[binaries.postgres, '-D', join(layout.stateDir, 'pg', 'data'), '-p', String(PORTS.postgres)],
    ...['-c', `listen_addresses=${address}`, '-c', 'unix_socket_directories='],
    // As the fault matrix runs it: fsync off loses nothing when only the process dies.
    ...['-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
  ];
}

function natsArgv(context: SpecContext, host: HostName): string[] {
  const { layout } = context;
  const address = layout.address(host);
  const routes = NODE_HOSTS.map(
    (node) => `nats://${layout.address(node)}:${PORTS.natsCluster}`,
  ).join(',');
  return [
    ...[context.binaries.nats, '-js', '-sd', join(layout.stateDir, 'nats', host)],
    ...['-n', `n${hostNumber(host)}`, '-a', address, '-p', String(PORTS.natsClient)],
    ...['-m', String(PORTS.natsMonitor), '--cluster_name', layout.name],
    ...['-cluster', `nats://${address}:${PORTS.natsCluster}`, '-routes', routes],
  ];
}

/** The simulator's settings (it reads none of the shared ones). */
function simEnv(context: SpecContext, log: string): Record<string, string> {
  const { layout, options } = context;
  return {
    VENUE_SIM_HOST: layout.address('infra'),
    VENUE_SIM_PORT: String(PORTS.sim),
    VENUE_SIM_METRICS_PORT: String(PORTS.simMetrics),
    VENUE_SIM_SEED: String(options.seed ?? 1),
    VENUE_SIM_TICK_MS: String(options.simTickMs ?? 100),
    LOG_LEVEL: options.logLevel ?? 'info',
    LOG_FILE: log,
    ...options.serviceEnv?.['venue-sim'],
  };
}

/** Each service's own settings on `host`: its listeners on the host's address, its instance id. */
function ownEnv(
  context: SpecContext,
  host: HostName,
  service: Exclude<NodeService, 'venue-sim'>,
): Record<string, string | undefined> {
  const address = context.layout.address(host);
  const n = hostNumber(host);
  const timings = context.options.worker ?? {};
  switch (service) {
    case 'budget':
      return {
        BUDGET_METRICS_PORT: String(PORTS.budgetMetrics),
        BUDGET_SWEEP_INTERVAL_MS: '1000',
        BUDGET_INSTANCE_ID: `lab-b${n}`,
      };
    case 'gateway':
      return {
        GATEWAY_HOST: address,
        GATEWAY_PORT: String(PORTS.gateway),
        GATEWAY_METRICS_PORT: String(PORTS.gatewayMetrics),
        GATEWAY_RATE_LIMIT_PER_S: '100000',
      };
    case 'notifier':
      return {
        NOTIFIER_HOST: address,
        NOTIFIER_PORT: String(PORTS.notifier),
        NOTIFIER_METRICS_PORT: String(PORTS.notifierMetrics),
        NOTIFIER_INSTANCE_ID: `lab-n${n}`,
      };
    case 'worker':
      return {
        WORKER_ID: `lab-w${n}`,
        WORKER_METRICS_PORT: String(PORTS.workerMetrics),
        LOG_LEVEL: context.options.logLevel ?? 'debug',
        WORKER_LEASE_TTL_MS: String(timings.leaseTtlMs ?? 2000),
        WORKER_LEASE_RENEW_MS: timings.leaseRenewMs?.toString(),
        WORKER_TAKEOVER_SCAN_MS: String(timings.takeoverScanMs ?? 250),
        WORKER_MAINTENANCE_POLL_MS: String(timings.maintenancePollMs ?? 500),
        WORKER_SHUTDOWN_GRACE_MS: String(timings.shutdownGraceMs ?? 3000),
      };
  }
}

/** Settings of one Node service on `host`, as e2e/fault-matrix/fleet.ts gives them. */
function serviceEnv(
  context: SpecContext,
  host: HostName,
  service: NodeService,
  log: string,
): Record<string, string> {
  if (service === 'venue-sim') {
    return simEnv(context, log);
  }
  const { layout, options } = context;
  const natsPrefix = options.natsPrefix ?? 'sts';
  const env: Record<string, string | undefined> = {
    DATABASE_URL: layout.databaseUrl,
    REDIS_URL: layout.redisUrl,
    VENUE_SIM_URL: layout.simUrl,
    NATS_URL: isNodeHost(host) ? layout.natsUrlsFrom(host) : undefined,
    NATS_REPLICAS: String(natsReplicas(options)),
    NATS_PREFIX: natsPrefix,
    REDIS_PREFIX: `${natsPrefix}:`,
    CREDENTIALS_KEK: context.kek,
    WEBHOOK_SECRETS_KEK: context.webhookKek,
    OPERATOR_ID: 'lab',
    METRICS_HOST: layout.address(host),
    LOG_LEVEL: options.logLevel ?? 'info',
    LOG_FILE: log,
    ...ownEnv(context, host, service),
    ...options.env,
    ...options.serviceEnv?.[service],
  };
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** The process of `service` on `host`: its command line, settings and log files. */
export function processSpec(
  context: SpecContext,
  host: HostName,
  service: ServiceName,
): ProcessEntry {
  const { layout, binaries } = context;
  const { out, log } = logPaths(layout, host, service);
  const base = { PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin' };
  const cwd = join(layout.stateDir, 'run');
  if (service === 'postgres' || service === 'redis') {
    const pgDir = join(layout.stateDir, 'pg');
    const argv = infraArgv(context, service);
    return {
      host,
      service,
      spawn: { argv, env: base, cwd: service === 'postgres' ? pgDir : cwd, out },
    };
  }
  if (service === 'nats') {
    return { host, service, spawn: { argv: natsArgv(context, host), env: base, cwd, out } };
  }
  // libfaketime is given through `env`, so `ip` itself runs without it.
  const faketime =
    context.faketimeLib && isNodeHost(host)
      ? [
          'env',
          `LD_PRELOAD=${context.faketimeLib}`,
          `FAKETIME_TIMESTAMP_FILE=${layout.faketimeFile(host)}`,
          'FAKETIME_CACHE_DURATION=1',
          'DONT_FAKE_MONOTONIC=1',
        ]
      : [];
  const argv = [
    ...faketime,
    binaries.node,
    '--enable-source-maps',
    join(context.distDir, MAINS[service]),
  ];
  const env = { ...base, ...serviceEnv(context, host, service, log) };
  return { host, service, spawn: { argv, env, cwd, out }, log };
}
