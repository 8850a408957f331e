/**
 * The address a request came from, as a venue's per-IP limits count it: the
 * socket's remote address, an IPv4 address mapped into IPv6 (`::ffff:127.0.0.2`,
 * what a dual-stack listener reports) written as the IPv4 address it is, so
 * one sender is one key however the listener was bound.
 */
export function sourceAddressOf(socket: { remoteAddress?: string }): string {
  const address = socket.remoteAddress ?? 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}
