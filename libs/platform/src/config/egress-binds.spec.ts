import type { NetworkInterfaceInfo } from 'node:os';
import { ConfigError } from './load-config';
import { checkEgressBinds } from './egress-binds';
import { parseEgressPlan } from './egress-plan-loader';

/** A host with lo, one public interface and one link-local IPv6 address. */
const HOST: NodeJS.Dict<NetworkInterfaceInfo[]> = {
  lo: [
    nic('127.0.0.1', 'IPv4', '255.0.0.0', true),
    nic('::1', 'IPv6', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true),
  ],
  eth0: [
    nic('203.0.113.10', 'IPv4', '255.255.255.0'),
    nic('203.0.113.11', 'IPv4', '255.255.255.0'),
    nic('2001:db8::10', 'IPv6', 'ffff:ffff:ffff:ffff::'),
    nic('fe80::1', 'IPv6', 'ffff:ffff:ffff:ffff::'),
  ],
};

function nic(
  address: string,
  family: 'IPv4' | 'IPv6',
  netmask: string,
  internal = false,
): NetworkInterfaceInfo {
  const base = { address, netmask, mac: '00:00:00:00:00:00', internal, cidr: null };
  return family === 'IPv4' ? { ...base, family } : { ...base, family, scopeid: 0 };
}

const planOf = (...binds: Array<string | undefined>) =>
  parseEgressPlan({
    egresses: binds.map((bind, index) =>
      bind === undefined ? { id: `e${index}` } : { id: `e${index}`, bind },
    ),
  });

const problemsOf = (run: () => void): string[] => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
};

describe('the egress plan’s bind addresses at boot', () => {
  it('accepts addresses of the host’s interfaces, however they are written', () => {
    expect(() =>
      checkEgressBinds(
        planOf('203.0.113.10', '203.0.113.11', '2001:DB8:0::10', 'fe80::1%eth0'),
        HOST,
      ),
    ).not.toThrow();
  });

  it('accepts an egress without bind: it sends from the default route', () => {
    expect(() => checkEgressBinds(planOf(undefined), {})).not.toThrow();
  });

  it('refuses an address no interface holds, naming the egress and the address', () => {
    const plan = parseEgressPlan({
      egresses: [
        { id: 'a', bind: '203.0.113.10' },
        { id: 'b', bind: '203.0.113.9' },
      ],
    });
    expect(() => checkEgressBinds(plan, HOST)).toThrow(ConfigError);
    expect(problemsOf(() => checkEgressBinds(plan, HOST))).toEqual([
      'EGRESS_PLAN: egress "b" binds 203.0.113.9, which is not an address of this host',
    ]);
  });

  it('lists every wrong address at once, IPv6 too', () => {
    expect(
      problemsOf(() => checkEgressBinds(planOf('198.51.100.1', '2001:db8::11'), HOST)),
    ).toEqual([
      'EGRESS_PLAN: egress "e0" binds 198.51.100.1, which is not an address of this host',
      'EGRESS_PLAN: egress "e1" binds 2001:db8::11, which is not an address of this host',
    ]);
  });

  it('takes all of 127/8 as local on Linux, where lo routes the whole block, and ::1', () => {
    expect(() =>
      checkEgressBinds(planOf('127.0.0.2', '127.9.9.9', '::1'), {}, 'linux'),
    ).not.toThrow();
  });

  it('takes only the listed loopback aliases as local elsewhere', () => {
    expect(
      problemsOf(() => checkEgressBinds(planOf('127.0.0.1', '127.0.0.2'), HOST, 'darwin')),
    ).toEqual(['EGRESS_PLAN: egress "e1" binds 127.0.0.2, which is not an address of this host']);
  });
});
