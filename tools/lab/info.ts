import { HOSTS, NODE_HOSTS, PORTS, type HostName, type LabLayout, type NodeHost } from './layout';
import { natsReplicas } from './services';
import type { LabState } from './state';

/** Where everything of a lab that is up answers (what `up` returns and prints). */
export interface LabInfo {
  name: string;
  net: number;
  stateDir: string;
  logDir: string;
  hosts: Record<HostName, { namespace: string; address: string }>;
  /** The gateways' base URLs (REST API, /healthz), on h1 and h2. */
  gateways: Record<'h1' | 'h2', string>;
  /** The notifiers' base URLs (/healthz; WebSocket at ws://…/api/v1/ws), on h1 and h2. */
  notifiers: Record<'h1' | 'h2', string>;
  /** The venue simulator (its control API under /control). */
  sim: string;
  databaseUrl: string;
  redisUrl: string;
  /** Each NATS node's client URL. */
  nats: Record<NodeHost, string>;
  /** Each NATS node's monitor (/varz, /jsz, /routez, /healthz). */
  natsMonitor: Record<NodeHost, string>;
  /** Each service's /metrics, /livez and /readyz listener, by `<host>/<service>`. */
  metrics: Record<string, string>;
  /**
   * Settings for a client in the root namespace (a spec's TestOperator, the
   * ops tool): the lab's database, Redis, NATS (all three nodes), prefixes
   * and CREDENTIALS_KEK.
   */
  env: Record<string, string>;
  /** libfaketime is preloaded into h1..h3's Node services (skew works). */
  faketime: boolean;
}

const METRICS_PORTS: Record<string, number> = {
  gateway: PORTS.gatewayMetrics,
  notifier: PORTS.notifierMetrics,
  budget: PORTS.budgetMetrics,
  worker: PORTS.workerMetrics,
  'venue-sim': PORTS.simMetrics,
};

const byHost = <H extends string>(hosts: readonly H[], value: (host: H) => string) =>
  Object.fromEntries(hosts.map((host) => [host, value(host)])) as Record<H, string>;

export function labInfo(layout: LabLayout, state: LabState): LabInfo {
  const metrics: Record<string, string> = {};
  for (const entry of Object.values(state.processes)) {
    const port = METRICS_PORTS[entry.service];
    if (port) {
      metrics[`${entry.host}/${entry.service}`] = `http://${layout.address(entry.host)}:${port}`;
    }
  }
  const natsPrefix = state.options.natsPrefix ?? 'sts';
  const edge = ['h1', 'h2'] as const;
  return {
    name: layout.name,
    net: layout.net,
    stateDir: layout.stateDir,
    logDir: layout.logDir,
    hosts: Object.fromEntries(
      HOSTS.map((host) => [
        host,
        { namespace: layout.namespace(host), address: layout.address(host) },
      ]),
    ) as LabInfo['hosts'],
    gateways: byHost(edge, (host) => `http://${layout.address(host)}:${PORTS.gateway}`),
    notifiers: byHost(edge, (host) => `http://${layout.address(host)}:${PORTS.notifier}`),
    sim: layout.simUrl,
    databaseUrl: layout.databaseUrl,
    redisUrl: layout.redisUrl,
    nats: byHost(NODE_HOSTS, (host) => layout.natsUrl(host)),
    natsMonitor: byHost(NODE_HOSTS, (host) => layout.natsMonitorUrl(host)),
    metrics,
    env: {
      DATABASE_URL: layout.databaseUrl,
      REDIS_URL: layout.redisUrl,
      NATS_URL: NODE_HOSTS.map((host) => layout.natsUrl(host)).join(','),
      NATS_PREFIX: natsPrefix,
      REDIS_PREFIX: `${natsPrefix}:`,
      NATS_REPLICAS: String(natsReplicas(state.options)),
      VENUE_SIM_URL: layout.simUrl,
      CREDENTIALS_KEK: state.kek,
      OPERATOR_ID: 'lab',
    },
    faketime: !!state.faketimeLib,
  };
}
