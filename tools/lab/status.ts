import { describeFault, listFilters } from './faults';
import { HOSTS, type HostName, type LabLayout } from './layout';
import { entryAlive } from './launch';
import { clusterView, streamViews, type ClusterView, type StreamView } from './nats';
import { leftovers } from './network';
import { HOST_SERVICES, type ServiceName } from './services';
import { alive } from './shell';
import { processKey, type LabState } from './state';

export interface LabStatus {
  name: string;
  net: number;
  phase: LabState['phase'];
  startedAt: string;
  hosts: Record<
    HostName,
    {
      namespace: string;
      address: string;
      /** The namespace exists. */
      present: boolean;
      processes: { service: ServiceName; pid?: number; alive: boolean }[];
      /** tc filters in force on the host's link (both ends). */
      filters: number;
    }
  >;
  nats: ClusterView;
  streams: StreamView[];
  /** The faults in force, as `describeFault` words them. */
  faults: string[];
  delayer?: { pid: number; alive: boolean };
  faketime: boolean;
}

export async function labStatus(layout: LabLayout, state: LabState): Promise<LabStatus> {
  const present = new Set(leftovers(layout).namespaces);
  const filters = listFilters(layout);
  const [nats, streams] = await Promise.all([clusterView(layout), streamViews(layout)]);
  const hosts = {} as LabStatus['hosts'];
  for (const host of HOSTS) {
    hosts[host] = {
      namespace: layout.namespace(host),
      address: layout.address(host),
      present: present.has(layout.namespace(host)),
      processes: HOST_SERVICES[host].map((service) => {
        const entry = state.processes[processKey(host, service)];
        return { service, pid: entry?.pid, alive: !!entry && entryAlive(layout, entry) };
      }),
      filters: filters[host],
    };
  }
  return {
    name: layout.name,
    net: layout.net,
    phase: state.phase,
    startedAt: state.startedAt,
    hosts,
    nats,
    streams,
    faults: state.faults.map(describeFault),
    delayer: state.delayerPid
      ? { pid: state.delayerPid, alive: alive(state.delayerPid) }
      : undefined,
    faketime: !!state.faketimeLib,
  };
}

/** The status as a few lines for a terminal. */
export function formatStatus(status: LabStatus): string {
  const lines = [
    `lab ${status.name} (10.${status.net}.0.0/24), ${status.phase} since ${status.startedAt}`,
  ];
  for (const host of HOSTS) {
    const each = status.hosts[host];
    const processes = each.processes
      .map((process) => `${process.service}${process.alive ? '' : ' DEAD'}`)
      .join(', ');
    const missing = each.present ? '' : ' (namespace missing)';
    lines.push(`  ${host.padEnd(5)} ${each.address.padEnd(12)} ${processes}${missing}`);
  }
  const { nats } = status;
  lines.push(
    `  nats: meta leader ${nats.metaLeader || 'none'}; peers ${
      nats.peers.map((peer) => `${peer.server}${peer.current ? '' : ' (behind)'}`).join(', ') ||
      'unknown'
    }`,
  );
  for (const node of nats.nodes) {
    lines.push(
      `    ${node.server}: ${node.reachable ? '' : 'unreachable, '}${node.healthy ? 'healthy' : 'UNHEALTHY'}, ` +
        `follows ${node.metaLeader || 'none'}, ${node.routes} routes`,
    );
  }
  for (const stream of status.streams) {
    lines.push(
      `  stream ${stream.name}: R${stream.replicas}, leader ${stream.leader || 'none'}, copies ${stream.copies
        .map((copy) => `${copy.server}${copy.current ? '' : ' (behind)'}`)
        .join(', ')}`,
    );
  }
  lines.push(`  faults: ${status.faults.length > 0 ? status.faults.join('; ') : 'none'}`);
  if (status.delayer) {
    lines.push(`  delayer: pid ${status.delayer.pid}${status.delayer.alive ? '' : ' DEAD'}`);
  }
  return lines.join('\n');
}
