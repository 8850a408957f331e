import { createHash } from 'node:crypto';
import { parseClientOrderId, partialClientOrderId } from '@sts/domain';

const digest = (id: string): string => createHash('sha256').update(id).digest('hex');

/** The service's client order ids (libs/domain client-order-id.ts): 32 lowercase hex. */
const SERVICE_ID = /^[0-9a-f]{32}$/;

/**
 * Our client order ids in the form each venue accepts. The encoding is
 * deterministic, so a restarted worker recomputes the venue's id from the
 * trade's deterministic id and finds its orders again.
 *  - hyperliquid: a 128-bit hex `cloid` (the service's own ids as they are)
 *  - lighter: an integer `client_order_index` (48 bits: `lighterClientOrderIndex`)
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
      return lighterClientOrderIndex(id);
    case 'aster':
      return /^[A-Za-z0-9._:/-]{1,36}$/.test(id) ? id : digest(id).slice(0, 32);
    default:
      return id;
  }
}

/**
 * Our id behind a venue's client order id where the encoding can be undone
 * without remembering it (a client that never placed the order: a restarted
 * worker): Hyperliquid's cloid of one of the service's own ids; on Lighter
 * the partial id its index carries (the trade and the kind). Undefined
 * otherwise.
 */
export function decodeClientOrderId(venue: string, venueId: string): string | undefined {
  if (venue === 'hyperliquid' && /^0x[0-9a-f]{32}$/.test(venueId)) {
    return venueId.slice(2);
  }
  if (venue === 'lighter') {
    return lighterPartialId(venueId);
  }
  return undefined;
}

/**
 * Lighter's client order index layout: 24 tag bits, 1 kind bit (hedge or
 * unwind 1, maker 0), 23 rest bits. The rest of a maker or hedge index is 23
 * bits of its id's hash; an unwind's is `UNWIND_REST`, which no hedge index
 * carries (a hedge whose hash gives it takes `UNWIND_REST + 1`).
 */
const TAG_BITS = 24;
const REST_BITS = 23;
const KIND_BIT = 2 ** REST_BITS;
const TAG_UNIT = 2 ** (REST_BITS + 1);
const UNWIND_REST = 0;
/** The only unwind attempt an index has room for (the worker sends one per trade). */
const UNWIND_ATTEMPT = 1;

/**
 * Our id as Lighter's client order index (an integer of 48 bits, where ours
 * have 128): the first 24 bits of the id's trade tag, its kind, and what
 * tells the trade's orders of that kind apart. A worker that did not place
 * the order reads from it the trade (by those 24 bits) and the kind
 * (`PartialClientOrderId`), which is what recovery and fill routing need:
 *  - maker: kind bit 0, 23 bits of the id's hash;
 *  - hedge: kind bit 1, 23 bits of the id's hash, never `UNWIND_REST`;
 *  - unwind: kind bit 1, `UNWIND_REST`. An unwind shares its kind bit with
 *    the hedges, so it is never read as a maker order, the one confusion that
 *    matters on the maker account where it trades; a trade's hedges trade on
 *    its other venue.
 * Maker indices are those of earlier releases; hedge indices too, but for the
 * one in 2^23 whose hash gives `UNWIND_REST` (such a hedge placed by an
 * earlier release reads back as an unwind). An id not of the service's form
 * is hashed whole.
 */
export function lighterClientOrderIndex(id: string): number {
  const hash = digest(id);
  const parsed = parseClientOrderId(id);
  if (!parsed) {
    return parseInt(hash.slice(0, 12), 16);
  }
  const tag = parseInt(parsed.tradeTag.slice(0, TAG_BITS / 4), 16) * TAG_UNIT;
  const rest = parseInt(hash.slice(0, 6), 16) >>> 1; // 23 bits
  switch (parsed.kind) {
    case 'maker':
      return tag + rest;
    case 'hedge':
      return tag + KIND_BIT + (rest === UNWIND_REST ? UNWIND_REST + 1 : rest);
    case 'unwind':
      if (parsed.attempt !== UNWIND_ATTEMPT) {
        throw new RangeError(
          `a Lighter client order index has room for unwind attempt ${UNWIND_ATTEMPT} only, not ${parsed.attempt}`,
        );
      }
      return tag + KIND_BIT + UNWIND_REST;
  }
}

/** The partial id a Lighter client order index carries (an integer of 48 bits), else undefined. */
function lighterPartialId(venueId: string): string | undefined {
  if (!/^\d{1,15}$/.test(venueId)) {
    return undefined;
  }
  const index = Number(venueId);
  if (!Number.isSafeInteger(index) || index >= 2 ** 48 || index === 0) {
    return undefined;
  }
  const tag = Math.floor(index / TAG_UNIT)
    .toString(16)
    .padStart(TAG_BITS / 4, '0');
  const rest = index % KIND_BIT;
  if (Math.floor(index / KIND_BIT) % 2 === 0) {
    return partialClientOrderId(tag, 'maker', rest.toString(16).padStart(15, '0'));
  }
  return rest === UNWIND_REST
    ? partialClientOrderId(tag, 'unwind', UNWIND_ATTEMPT.toString(16).padStart(15, '0'))
    : partialClientOrderId(tag, 'hedge', rest.toString(16).padStart(15, '0'));
}
