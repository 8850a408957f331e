import { createHash } from 'node:crypto';

const digest = (id: string): string => createHash('sha256').update(id).digest('hex');

/** The service's client order ids (libs/domain client-order-id.ts): 32 lowercase hex. */
const SERVICE_ID = /^[0-9a-f]{32}$/;

/**
 * Our client order ids in the form each venue accepts. The encoding is
 * deterministic, so a restarted worker recomputes the venue's id from the
 * trade's deterministic id and finds its orders again.
 *  - hyperliquid: a 128-bit hex `cloid` (the service's own ids as they are)
 *  - lighter: an integer `client_order_index` (48 bits)
 *  - aster: Binance-style, at most 36 characters of [A-Za-z0-9._:/-]
 *  - paradex, extended: the id as is
 */
export function encodeClientOrderId(venue: string, id: string): string | number {
  switch (venue) {
    case 'hyperliquid':
      // The service's own ids are 128-bit hex already: sent as they are, so
      // a restarted client reads them back from the venue's cloid.
      return `0x${SERVICE_ID.test(id) ? id : digest(id).slice(0, 32)}`;
    case 'lighter':
      return parseInt(digest(id).slice(0, 12), 16);
    case 'aster':
      return /^[A-Za-z0-9._:/-]{1,36}$/.test(id) ? id : digest(id).slice(0, 32);
    default:
      return id;
  }
}

/**
 * Our id behind a venue's client order id where the encoding can be undone
 * without remembering it (a client that never placed the order: a restarted
 * worker): Hyperliquid's cloid of one of the service's own ids. Undefined
 * otherwise.
 */
export function decodeClientOrderId(venue: string, venueId: string): string | undefined {
  if (venue === 'hyperliquid' && /^0x[0-9a-f]{32}$/.test(venueId)) return venueId.slice(2);
  return undefined;
}
