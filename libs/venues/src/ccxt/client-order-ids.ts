import { createHash } from 'node:crypto';

const digest = (id: string): string => createHash('sha256').update(id).digest('hex');

/**
 * Our client order ids in the form each venue accepts. The encoding is
 * deterministic, so a restarted worker recomputes the venue's id from the
 * trade's deterministic id and finds its orders again.
 *  - hyperliquid: a 128-bit hex `cloid`
 *  - lighter: an integer `client_order_index` (48 bits)
 *  - aster: Binance-style, at most 36 characters of [A-Za-z0-9._:/-]
 *  - paradex, extended: the id as is
 */
export function encodeClientOrderId(venue: string, id: string): string | number {
  switch (venue) {
    case 'hyperliquid':
      return `0x${digest(id).slice(0, 32)}`;
    case 'lighter':
      return parseInt(digest(id).slice(0, 12), 16);
    case 'aster':
      return /^[A-Za-z0-9._:/-]{1,36}$/.test(id) ? id : digest(id).slice(0, 32);
    default:
      return id;
  }
}
