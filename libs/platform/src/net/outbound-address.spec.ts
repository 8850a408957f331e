import { isPublicAddress, NonPublicAddressError, publicAddressesOf } from './outbound-address';

describe('public addresses', () => {
  it('refuses loopback, private, link-local, CGNAT, metadata and reserved IPv4', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '104.16.0.1']) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true });
    }
  });

  it('refuses IPv6 loopback, unique-local, link-local and IPv4 carried inside IPv6', () => {
    // What URL parsing makes of an IPv4-compatible address: hex, not dotted.
    const fromUrl = new URL('https://[::127.0.0.1]/').hostname.slice(1, -1);
    expect(fromUrl).toBe('::7f00:1');
    for (const address of [
      fromUrl,
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
    }
    expect(isPublicAddress('2606:4700:4700::1111')).toBe(true);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('not-an-ip')).toBe(false);
  });

  it('resolves a name and refuses it when an answer is not public', async () => {
    await expect(publicAddressesOf('localhost')).rejects.toBeInstanceOf(NonPublicAddressError);
    await expect(publicAddressesOf('[::1]')).rejects.toThrow(/not a public address/);
    await expect(publicAddressesOf('8.8.4.4')).resolves.toEqual(['8.8.4.4']);
  });
});
