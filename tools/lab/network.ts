import { spawn } from 'node:child_process';
import { HOSTS, type HostName, type LabLayout } from './layout';
import { attempt, run } from './shell';

/** The namespaces of this machine (`ip netns list`). */
export function namespaces(): string[] {
  return run('ip', ['netns', 'list'])
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter(Boolean);
}

/** The root namespace's interfaces, by name. */
export function links(): string[] {
  const parsed = JSON.parse(run('ip', ['-j', 'link', 'show'])) as { ifname: string }[];
  return parsed.map((link) => link.ifname);
}

/** Each address of the root namespace (`10.77.0.1` and the like) with its interface. */
function addresses(): { ifname: string; local: string }[] {
  const parsed = JSON.parse(run('ip', ['-j', 'addr', 'show'])) as {
    ifname: string;
    addr_info?: { local: string }[];
  }[];
  return parsed.flatMap((link) =>
    (link.addr_info ?? []).map((info) => ({ ifname: link.ifname, local: info.local })),
  );
}

/** What of this lab exists now: its namespaces and root-side links. */
export function leftovers(layout: LabLayout): { namespaces: string[]; links: string[] } {
  const ours = new Set([...HOSTS.map((host) => layout.namespace(host))]);
  const ourLinks = new Set(layout.links());
  return {
    namespaces: namespaces().filter((ns) => ours.has(ns)),
    links: links().filter((link) => ourLinks.has(link)),
  };
}

/** Refuses a subnet that another interface (another lab's bridge) already holds. */
export function checkSubnetFree(layout: LabLayout): void {
  const prefix = `10.${layout.net}.0.`;
  const taken = addresses().find((address) => address.local.startsWith(prefix));
  if (taken) {
    throw new Error(
      `10.${layout.net}.0.0/24 is in use on ${taken.ifname} (${taken.local}): ` +
        'give this lab another net (LAB_NET or --net)',
    );
  }
}

/** The bridge with the root namespace's address, and each host's namespace joined to it. */
export function createNetwork(layout: LabLayout): void {
  const bridge = layout.bridge;
  run('ip', ['link', 'add', bridge, 'type', 'bridge']);
  run('ip', ['addr', 'add', `${layout.gatewayAddress}/24`, 'dev', bridge]);
  run('ip', ['link', 'set', bridge, 'up']);
  for (const host of HOSTS) {
    createHost(layout, host);
  }
}

function createHost(layout: LabLayout, host: HostName): void {
  const ns = layout.namespace(host);
  const veth = layout.veth(host);
  run('ip', ['netns', 'add', ns]);
  run('ip', ['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
  run('ip', ['link', 'set', veth, 'master', layout.bridge]);
  run('ip', ['link', 'set', veth, 'up']);
  run('ip', ['-n', ns, 'link', 'set', 'eth0', 'address', layout.mac(host)]);
  run('ip', ['-n', ns, 'addr', 'add', `${layout.address(host)}/24`, 'dev', 'eth0']);
  run('ip', ['-n', ns, 'link', 'set', 'eth0', 'up']);
  run('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
}

/**
 * Deletes whatever of the lab's network exists (after a half-built `up`
 * too): each namespace (its eth0 with it, and so the veth's other end), any
 * root-side veth left, and the bridge. Returns what was still there after.
 */
export function destroyNetwork(layout: LabLayout): { namespaces: string[]; links: string[] } {
  const before = leftovers(layout);
  for (const ns of before.namespaces) {
    attempt('ip', ['netns', 'del', ns]);
  }
  for (const link of leftovers(layout).links) {
    attempt('ip', ['link', 'del', link]);
  }
  return leftovers(layout);
}

/** Every process in the host's namespace (`ip netns pids`). */
export function namespacePids(ns: string): number[] {
  if (!namespaces().includes(ns)) {
    return [];
  }
  return run('ip', ['netns', 'pids', ns])
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

/**
 * Whether a TCP connection from inside `ns` to `address:port` opens within
 * `timeoutS` seconds (bash's /dev/tcp, so no client of ours is needed there).
 */
export function tcpReachable(
  ns: string,
  address: string,
  port: number,
  timeoutS = 2,
): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = spawn(
      'ip',
      [
        ...['netns', 'exec', ns, 'timeout', String(timeoutS)],
        ...['bash', '-c', `exec 3<>/dev/tcp/${address}/${port}`],
      ],
      { stdio: 'ignore' },
    );
    probe.once('error', () => resolve(false));
    probe.once('exit', (code) => resolve(code === 0));
  });
}
