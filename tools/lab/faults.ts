import { dropWhen, when } from './bpf';
import { HOSTS, NODE_HOSTS, PORTS, type HostName, type LabLayout, type NodeHost } from './layout';
import { attempt, run } from './shell';

/** A fault in force, as state.json keeps it (a kill is not one: status shows dead processes). */
export type Fault =
  | { kind: 'isolate'; host: HostName }
  | { kind: 'cut-infra'; host: NodeHost }
  | { kind: 'delay'; ms: number; lossPercent: number; hosts: HostName[] }
  | { kind: 'skew'; host: NodeHost; seconds: number };

/** Which end of a host's link a filter sits on, and in which direction. */
type Hook =
  /** eth0 inside the host, egress: what the host sends. */
  | 'host-out'
  /** The root-side veth, egress: what the bridge delivers to the host. */
  | 'host-in'
  /** The root-side veth, ingress: what the host sends, after the delayer's packet socket saw it. */
  | 'bridge-in';

interface Filter {
  host: HostName;
  hook: Hook;
  bytecode: string;
}

export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case 'isolate':
      return `isolate ${fault.host}`;
    case 'cut-infra':
      return `cut-infra ${fault.host}`;
    case 'delay':
      return `delay ${fault.ms} ms, loss ${fault.lossPercent} % (${fault.hosts.join(', ')})`;
    case 'skew':
      return `skew ${fault.host} ${fault.seconds >= 0 ? '+' : ''}${fault.seconds} s`;
  }
}

/** Every host the fault acts on. */
export function faultHosts(fault: Fault): HostName[] {
  return fault.kind === 'delay' ? fault.hosts : [fault.host];
}

function isolateFilters(layout: LabLayout, host: HostName): Filter[] {
  const gw = [layout.gatewayAddress];
  return [
    {
      host,
      hook: 'host-out',
      bytecode: dropWhen(
        when.ipv4(),
        when.inSubnet24('dst', layout.gatewayAddress),
        when.addressNotIn('dst', gw),
      ),
    },
    {
      host,
      hook: 'host-in',
      bytecode: dropWhen(
        when.ipv4(),
        when.inSubnet24('src', layout.gatewayAddress),
        when.addressNotIn('src', gw),
      ),
    },
  ];
}

/**
 * The host loses the other NATS nodes (client and route ports, both ways:
 * the nodes dial each other) and Postgres and Redis; the venue (infra's
 * port 7100) and the root namespace stay reachable.
 */
function cutInfraFilters(layout: LabLayout, host: NodeHost): Filter[] {
  const others = NODE_HOSTS.filter((other) => other !== host).map((other) => layout.address(other));
  const infra = [layout.address('infra')];
  const nats = [PORTS.natsClient, PORTS.natsCluster];
  const stores = [PORTS.postgres, PORTS.redis];
  const drop = (hook: Hook, ...conditions: Parameters<typeof dropWhen>): Filter => ({
    host,
    hook,
    bytecode: dropWhen(...conditions),
  });
  return [
    drop(
      'host-out',
      when.ipv4(),
      when.addressIn('dst', others),
      when.tcp(),
      when.port('either', nats),
    ),
    drop(
      'host-out',
      when.ipv4(),
      when.addressIn('dst', infra),
      when.tcp(),
      when.port('dst', stores),
    ),
    drop(
      'host-in',
      when.ipv4(),
      when.addressIn('src', others),
      when.tcp(),
      when.port('either', nats),
    ),
    drop(
      'host-in',
      when.ipv4(),
      when.addressIn('src', infra),
      when.tcp(),
      when.port('src', stores),
    ),
  ];
}

/** The delayer's share: frames from the host to another lab host leave only through it. */
function delayFilters(layout: LabLayout, hosts: HostName[]): Filter[] {
  return hosts.map((host) => ({
    host,
    hook: 'bridge-in' as const,
    bytecode: dropWhen(
      when.ipv4(),
      when.inSubnet24('dst', layout.gatewayAddress),
      when.addressNotIn('dst', [layout.gatewayAddress]),
    ),
  }));
}

function filtersOf(layout: LabLayout, fault: Fault): Filter[] {
  switch (fault.kind) {
    case 'isolate':
      return isolateFilters(layout, fault.host);
    case 'cut-infra':
      return cutInfraFilters(layout, fault.host);
    case 'delay':
      return delayFilters(layout, fault.hosts);
    case 'skew':
      return [];
  }
}

/** `tc` in the right namespace for the hook, and its device and direction. */
function where(layout: LabLayout, host: HostName, hook: Hook): { tc: string[]; dev: string } {
  return hook === 'host-out'
    ? { tc: ['-n', layout.namespace(host)], dev: 'eth0' }
    : { tc: [], dev: layout.veth(host) };
}

/** Removes every tc filter of the lab (the clsact qdisc on both ends of each host's link). */
export function clearFilters(layout: LabLayout): void {
  for (const host of HOSTS) {
    attempt('tc', ['qdisc', 'del', 'dev', layout.veth(host), 'clsact']);
    attempt('tc', ['-n', layout.namespace(host), 'qdisc', 'del', 'dev', 'eth0', 'clsact']);
  }
}

/** Programs tc for exactly `faults`: every filter of the lab is replaced. */
export function applyFilters(layout: LabLayout, faults: Fault[]): number {
  clearFilters(layout);
  const filters = faults.flatMap((fault) => filtersOf(layout, fault));
  const withQdisc = new Set<string>();
  filters.forEach((filter, index) => {
    const { tc, dev } = where(layout, filter.host, filter.hook);
    const key = `${tc.join(' ')} ${dev}`;
    if (!withQdisc.has(key)) {
      run('tc', [...tc, 'qdisc', 'add', 'dev', dev, 'clsact']);
      withQdisc.add(key);
    }
    const direction = filter.hook === 'bridge-in' ? 'ingress' : 'egress';
    run('tc', [
      ...tc,
      ...['filter', 'add', 'dev', dev, direction, 'prio', String(index + 1)],
      ...['bpf', 'da', 'bytecode', filter.bytecode],
    ]);
  });
  return filters.length;
}

/** The tc filters in force on each host's two ends, as tc lists them (for status). */
export function listFilters(layout: LabLayout): Record<HostName, number> {
  const count = (args: string[]): number =>
    (run('tc', args).match(/^filter .* bpf .*handle /gm) ?? []).length;
  const result = {} as Record<HostName, number>;
  for (const host of HOSTS) {
    let total = 0;
    for (const args of [
      ['filter', 'show', 'dev', layout.veth(host), 'ingress'],
      ['filter', 'show', 'dev', layout.veth(host), 'egress'],
      ['-n', layout.namespace(host), 'filter', 'show', 'dev', 'eth0', 'egress'],
    ]) {
      try {
        total += count(args);
      } catch {
        // no clsact there, or no such link
      }
    }
    result[host] = total;
  }
  return result;
}
