import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The lab's hosts: `infra` (Postgres, Redis, the venue simulator) and three service hosts. */
export const HOSTS = ['infra', 'h1', 'h2', 'h3'] as const;
export type HostName = (typeof HOSTS)[number];

/** The hosts that run a NATS node and a worker (h1 and h2 also run gateway, notifier, budget). */
export const NODE_HOSTS = ['h1', 'h2', 'h3'] as const;
export type NodeHost = (typeof NODE_HOSTS)[number];

export const isHost = (value: string): value is HostName =>
  (HOSTS as readonly string[]).includes(value);
export const isNodeHost = (value: string): value is NodeHost =>
  (NODE_HOSTS as readonly string[]).includes(value);

/** Fixed ports, the same on every host (each host has an address of its own). */
export const PORTS = {
  postgres: 5432,
  redis: 6379,
  sim: 7100,
  natsClient: 4222,
  natsCluster: 6222,
  natsMonitor: 8222,
  gateway: 3000,
  notifier: 3001,
  gatewayMetrics: 9460,
  notifierMetrics: 9461,
  budgetMetrics: 9462,
  workerMetrics: 9463,
  simMetrics: 9469,
} as const;

/** Linux's limit on an interface name (IFNAMSIZ - 1). */
const MAX_IFNAME = 15;

export interface LabOptions {
  /** Prefix of every namespace, link and the bridge (env LAB_NAME; default `stslab`). */
  name?: string;
  /** The lab's subnet is 10.<net>.0.0/24 (env LAB_NET; default 77). */
  net?: number;
  /** Where state, logs, data and the private build go (env LAB_STATE_DIR; default tmp/lab/<name>). */
  stateDir?: string;
  /** The repository (found from this file when not given). */
  root?: string;
}

/** The repository: the nearest folder above `from` holding nx.json. */
export function findRoot(from = __dirname): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json')) && existsSync(join(dir, 'package.json'))) {
      return dir;
    }
    if (dirname(dir) === dir) {
      throw new Error(`no repository (nx.json) above ${from}`);
    }
  }
}

/** Every name and address of one lab, derived from its prefix and subnet. */
export class LabLayout {
  readonly name: string;
  readonly net: number;
  readonly root: string;
  readonly stateDir: string;

  constructor(options: LabOptions = {}) {
    this.name = options.name ?? process.env['LAB_NAME'] ?? 'stslab';
    this.net = options.net ?? Number(process.env['LAB_NET'] ?? 77);
    if (!/^[a-z][a-z0-9]{0,8}$/.test(this.name)) {
      throw new Error(
        `lab name ${JSON.stringify(this.name)}: 1 to 9 of [a-z0-9], starting with a letter ` +
          `(interface names such as ${this.name}-infra must stay within ${MAX_IFNAME} characters)`,
      );
    }
    if (!Number.isInteger(this.net) || this.net < 1 || this.net > 254) {
      throw new Error(`lab net ${this.net}: an integer 1..254 (the subnet is 10.<net>.0.0/24)`);
    }
    this.root = options.root ?? findRoot();
    const stateDir = options.stateDir ?? process.env['LAB_STATE_DIR'];
    this.stateDir = stateDir
      ? isAbsolute(stateDir)
        ? stateDir
        : resolve(this.root, stateDir)
      : join(this.root, 'tmp', 'lab', this.name);
  }

  get bridge(): string {
    return `${this.name}br`;
  }

  /** The root namespace's address on the bridge (the tests' side). */
  get gatewayAddress(): string {
    return `10.${this.net}.0.1`;
  }

  get subnet(): string {
    return `10.${this.net}.0.0/24`;
  }

  namespace(host: HostName): string {
    return `${this.name}-${host}`;
  }

  /** The root-side end of the host's veth pair (its end in the namespace is `eth0`). */
  veth(host: HostName): string {
    return `${this.name}-${host}`;
  }

  address(host: HostName): string {
    return `10.${this.net}.0.${10 + HOSTS.indexOf(host)}`;
  }

  /** A fixed, locally administered MAC for the host's eth0: 02:5e:<net>:00:00:<10+i>. */
  mac(host: HostName): string {
    const hex = (value: number): string => value.toString(16).padStart(2, '0');
    return `02:5e:${hex(this.net)}:00:00:${hex(10 + HOSTS.indexOf(host))}`;
  }

  natsServerName(host: NodeHost): string {
    return `n${host.slice(1)}`;
  }

  hostOfNatsServer(server: string): NodeHost | undefined {
    const host = `h${server.replace(/^n/, '')}`;
    return isNodeHost(host) ? host : undefined;
  }

  natsUrl(host: NodeHost): string {
    return `nats://${this.address(host)}:${PORTS.natsClient}`;
  }

  natsMonitorUrl(host: NodeHost): string {
    return `http://${this.address(host)}:${PORTS.natsMonitor}`;
  }

  /** The host's own node first, then the others (NATS_URL, split on commas by the services). */
  natsUrlsFrom(host: NodeHost): string {
    return [host, ...NODE_HOSTS.filter((other) => other !== host)]
      .map((each) => this.natsUrl(each))
      .join(',');
  }

  get databaseUrl(): string {
    return `postgres://postgres@${this.address('infra')}:${PORTS.postgres}/sts`;
  }

  get redisUrl(): string {
    return `redis://${this.address('infra')}:${PORTS.redis}`;
  }

  get simUrl(): string {
    return `http://${this.address('infra')}:${PORTS.sim}`;
  }

  get stateFile(): string {
    return join(this.stateDir, 'state.json');
  }

  get logDir(): string {
    return join(this.stateDir, 'logs');
  }

  get distDir(): string {
    return join(this.stateDir, 'dist');
  }

  faketimeFile(host: HostName): string {
    return join(this.stateDir, `${host}.faketime`);
  }

  /** Every interface name the lab creates in the root namespace. */
  links(): string[] {
    return [this.bridge, ...HOSTS.map((host) => this.veth(host))];
  }
}
