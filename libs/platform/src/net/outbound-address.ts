import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where the service must never send a request a user chose (a webhook's
 * URL): loopback, private, link-local, unique-local, carrier-grade NAT,
 * multicast, reserved and unspecified ranges, and the IPv6 forms that carry
 * an IPv4 address in them. A user's URL reaching one of them would let them
 * probe or call what sits inside the deployment (metadata services, the
 * database, the operator endpoints).
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/**
 * The IPv4 address an IPv6 one carries in dotted form (`::ffff:a.b.c.d`,
 * `::a.b.c.d`), if any. URL parsing writes the deprecated IPv4-compatible
 * form in hex (`[::127.0.0.1]` becomes `::7f00:1`): all of `::/96` is refused
 * above, whatever it carries.
 */
function embeddedIpv4(address: string): string | null {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1] : null;
}

/** Whether `address` (an IP literal) is one a user's request may go to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) {
    return !NOT_PUBLIC.check(address, 'ipv4');
  }
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null) {
      return isPublicAddress(v4);
    }
    return !NOT_PUBLIC.check(address, 'ipv6');
  }
  return false;
}

export class NonPublicAddressError extends Error {
  readonly code = 'non_public_address';

  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, which is not a public address`);
    this.name = 'NonPublicAddressError';
  }
}

/**
 * The addresses `host` resolves to (an IP literal is itself), refused when
 * any of them is not public: a name with one private answer among public
 * ones is refused too, since the connection may pick it. DNS failures throw
 * as `dns.lookup` does.
 */
export async function publicAddressesOf(host: string): Promise<string[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const addresses = isIP(bare)
    ? [bare]
    : (await lookup(bare, { all: true, verbatim: true })).map((entry) => entry.address);
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused !== undefined) {
    throw new NonPublicAddressError(host, refused);
  }
  return addresses;
}
