import ipaddr from 'ipaddr.js';

/** Normalises IPv4-mapped IPv6 (`::ffff:10.0.0.1`) so IPv4 CIDRs match it. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(address)) {
    return null;
  }
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
}

export function isValidCidr(cidr: string): boolean {
  try {
    ipaddr.parseCIDR(cidr);
    return true;
  } catch {
    return ipaddr.isValid(cidr);
  }
}

/** An empty list allows every address. A plain address counts as a /32 (or /128). */
export function ipAllowed(address: string, allowList: readonly string[]): boolean {
  if (allowList.length === 0) {
    return true;
  }
  const ip = parseAddress(address);
  if (!ip) {
    return false;
  }
  return allowList.some((entry) => {
    try {
      const [range, bits] = entry.includes('/')
        ? ipaddr.parseCIDR(entry)
        : ([ipaddr.parse(entry), ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128] as const);
      return ip.kind() === range.kind() && ip.match(range, bits);
    } catch {
      return false;
    }
  });
}
