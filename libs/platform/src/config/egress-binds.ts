import { BlockList, isIPv4 } from 'node:net';
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import type { EgressPlan } from '@sts/domain';
import { ConfigError } from './load-config';

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/**
 * Refuses a plan whose `bind` is not an address of this host. Called by the
 * services whose venue clients bind their sockets to it (workers, gateway):
 * without it a wrong address boots fine and fails at the first live request,
 * mid-trade, as EADDRNOTAVAIL. The budget service never binds and may run on
 * another host, so it must not call this.
 */
export function checkEgressBinds(
  plan: EgressPlan,
  interfaces: Interfaces = networkInterfaces(),
  platform: NodeJS.Platform = process.platform,
): void {
  const local = localAddresses(interfaces, platform);
  const problems: string[] = [];
  for (const egress of plan.egresses) {
    if (egress.bind !== undefined && !isLocal(local, egress.bind)) {
      problems.push(
        `EGRESS_PLAN: egress "${egress.id}" binds ${egress.bind}, which is not an address of this host`,
      );
    }
  }
  if (problems.length > 0) {
    throw new ConfigError(problems);
  }
}

function localAddresses(interfaces: Interfaces, platform: NodeJS.Platform): BlockList {
  // A BlockList compares addresses, not strings: `fe80:0::1` is `fe80::1`.
  const local = new BlockList();
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      local.addAddress(withoutZone(entry.address), entry.family === 'IPv4' ? 'ipv4' : 'ipv6');
    }
  }
  // Linux's lo routes the whole of 127/8, so any of it binds though only
  // 127.0.0.1 is listed; elsewhere (macOS) only the aliases listed do.
  if (platform === 'linux') {
    local.addSubnet('127.0.0.0', 8, 'ipv4');
  }
  local.addAddress('::1', 'ipv6');
  // The unspecified address binds anywhere: it is the default route, not a wrong address.
  local.addAddress('0.0.0.0', 'ipv4');
  local.addAddress('::', 'ipv6');
  return local;
}

function isLocal(local: BlockList, bind: string): boolean {
  const address = withoutZone(bind);
  return local.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
}

/** A link-local address may carry its interface (`fe80::1%eth0`); the address is what binds. */
export function withoutZone(address: string): string {
  const zone = address.indexOf('%');
  return zone === -1 ? address : address.slice(0, zone);
}
