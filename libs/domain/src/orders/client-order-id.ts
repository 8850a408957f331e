import { createHash } from 'node:crypto';

/**
 * Deterministic client order ids: the same trade, leg and cause always give
 * the same id, so after a crash a new worker maps every venue order and fill
 * back to its trade and attempt, and a hedge is never sent twice.
 *
 * Format: 32 lowercase hex characters (128 bits), the tightest cap we meet:
 * Hyperliquid's cloid is exactly 16 bytes (sent as `0x` + these 32 chars);
 * Aster's Binance-style newClientOrderId allows 36; Paradex and Extended take
 * longer strings. Lighter's client_order_index is a 48-bit integer: it keeps
 * part of an id (libs/venues lighterClientOrderIndex), read back by a worker
 * that did not place the order as a `PartialClientOrderId` (below).
 *
 *   [0, 16)  trade tag: 64 bits of sha256(trade id). Two trades on one
 *            account share a tag with odds ~n^2 / 2^65 (3e-10 for 100k trades).
 *   [16]     kind: `a` maker quote, `b` hedge, `c` unwind.
 *   maker:   [17, 32) quote number, zero-padded hex (up to 2^53 - 1).
 *   hedge:   [17, 29) 48 bits of sha256(trade id, maker fill id): which
 *            fill caused the hedge; [29, 32) attempt, 1 to 4095.
 *   unwind:  [17, 32) attempt, zero-padded hex, 1 to 4095: the reduce-only
 *            IOC on the maker venue that unwinds what the trade could not
 *            hedge at its end (decisions 2); a trade has one remainder, so
 *            the attempt alone tells its orders apart.
 * Within a trade, maker, hedge and unwind ids cannot collide (kind), maker ids are
 * distinct per quote number, and hedge ids are distinct per attempt; two
 * maker fills of one trade share a fill hash with odds ~n^2 / 2^49
 * (2e-7 for 10k fills).
 */

export const CLIENT_ORDER_ID_LENGTH = 32;
export const MAX_HEDGE_ATTEMPT = 0xfff;

const TAG_LENGTH = 16;
const FILL_HASH_LENGTH = 12;
const MAKER_KIND = 'a';
const HEDGE_KIND = 'b';
const UNWIND_KIND = 'c';
const ID_PATTERN = /^[0-9a-f]{32}$/;

export type ClientOrderCause =
  | { kind: 'maker'; quoteNumber: number }
  | { kind: 'hedge'; makerFillId: string; attempt: number }
  | { kind: 'unwind'; attempt: number };

export type ParsedClientOrderId =
  | { tradeTag: string; kind: 'maker'; quoteNumber: number }
  | { tradeTag: string; kind: 'hedge'; makerFillHash: string; attempt: number }
  | { tradeTag: string; kind: 'unwind'; attempt: number };

export class InvalidClientOrderCauseError extends Error {
  readonly code = 'invalid_client_order_cause';

  constructor(message: string) {
    super(message);
    this.name = 'InvalidClientOrderCauseError';
  }
}

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const tradeTag = (tradeId: string): string =>
  sha256Hex(`trade:${tradeId}`).slice(0, TAG_LENGTH);

export const makerFillHash = (tradeId: string, makerFillId: string): string =>
  sha256Hex(`fill:${tradeId}:${makerFillId}`).slice(0, FILL_HASH_LENGTH);

/** A maker quote's id from the trade's tag (`tradeTag`), for callers that keep the tag. */
export const makerClientOrderId = (tag: string, quoteNumber: number): string => {
  if (!Number.isSafeInteger(quoteNumber) || quoteNumber < 0) {
    throw new InvalidClientOrderCauseError(`bad quote number ${quoteNumber}`);
  }
  return tag + MAKER_KIND + quoteNumber.toString(16).padStart(15, '0');
};

export const clientOrderId = (tradeId: string, cause: ClientOrderCause): string => {
  if (tradeId.length === 0) {
    throw new InvalidClientOrderCauseError('trade id is empty');
  }
  switch (cause.kind) {
    case 'maker':
      return makerClientOrderId(tradeTag(tradeId), cause.quoteNumber);
    case 'hedge': {
      const { makerFillId, attempt } = cause;
      if (makerFillId.length === 0) {
        throw new InvalidClientOrderCauseError('maker fill id is empty');
      }
      if (!Number.isInteger(attempt) || attempt < 1 || attempt > MAX_HEDGE_ATTEMPT) {
        throw new InvalidClientOrderCauseError(
          `hedge attempt ${attempt} outside 1..${MAX_HEDGE_ATTEMPT}`,
        );
      }
      return (
        tradeTag(tradeId) +
        HEDGE_KIND +
        makerFillHash(tradeId, makerFillId) +
        attempt.toString(16).padStart(3, '0')
      );
    }
    case 'unwind': {
      const { attempt } = cause;
      if (!Number.isInteger(attempt) || attempt < 1 || attempt > MAX_HEDGE_ATTEMPT) {
        throw new InvalidClientOrderCauseError(
          `unwind attempt ${attempt} outside 1..${MAX_HEDGE_ATTEMPT}`,
        );
      }
      return tradeTag(tradeId) + UNWIND_KIND + attempt.toString(16).padStart(15, '0');
    }
  }
};

/**
 * Reads a venue's client order id (a `0x` prefix and upper case are accepted,
 * as venues echo them). Null for anything this service did not issue.
 */
export const parseClientOrderId = (venueClientOrderId: string): ParsedClientOrderId | null => {
  const id = venueClientOrderId.toLowerCase().replace(/^0x/, '');
  if (!ID_PATTERN.test(id)) {
    return null;
  }
  const tag = id.slice(0, TAG_LENGTH);
  const body = id.slice(TAG_LENGTH + 1);
  switch (id[TAG_LENGTH]) {
    case MAKER_KIND: {
      const quoteNumber = parseInt(body, 16);
      return Number.isSafeInteger(quoteNumber)
        ? { tradeTag: tag, kind: 'maker', quoteNumber }
        : null;
    }
    case HEDGE_KIND: {
      const attempt = parseInt(body.slice(FILL_HASH_LENGTH), 16);
      if (attempt < 1) {
        return null;
      }
      return {
        tradeTag: tag,
        kind: 'hedge',
        makerFillHash: body.slice(0, FILL_HASH_LENGTH),
        attempt,
      };
    }
    case UNWIND_KIND: {
      const attempt = parseInt(body, 16);
      return attempt >= 1 && attempt <= MAX_HEDGE_ATTEMPT
        ? { tradeTag: tag, kind: 'unwind', attempt }
        : null;
    }
    default:
      return null;
  }
};

/** Tag hex digits a partial id keeps: 24 bits. */
export const PARTIAL_TAG_LENGTH = 6;
const PARTIAL_FILLER = 'x'.repeat(TAG_LENGTH - PARTIAL_TAG_LENGTH);
const PARTIAL_PATTERN = new RegExp(
  `^([0-9a-f]{${PARTIAL_TAG_LENGTH}})${PARTIAL_FILLER}([${MAKER_KIND}${HEDGE_KIND}${UNWIND_KIND}])([0-9a-f]{15})$`,
);
const PARTIAL_KINDS = {
  [MAKER_KIND]: 'maker',
  [HEDGE_KIND]: 'hedge',
  [UNWIND_KIND]: 'unwind',
} as const;
const KIND_LETTERS = { maker: MAKER_KIND, hedge: HEDGE_KIND, unwind: UNWIND_KIND } as const;

/**
 * One of our ids known only in part: what a venue whose client order index
 * is narrower than our ids (Lighter's 48-bit integer) keeps of one, as read
 * back by a worker that did not place the order (a restarted one). It names
 * the trade by the first 24 bits of its tag and the kind (maker, hedge or
 * unwind); `rest` (15 hex digits) tells the trade's orders apart. Two trades
 * of one account share 24 tag bits with odds 2^-24 per pair. Form: the tag
 * prefix, `x` for the rest of the tag, the kind, `rest`.
 */
export interface PartialClientOrderId {
  tradeTagPrefix: string;
  kind: 'maker' | 'hedge' | 'unwind';
  partial: true;
}

export const partialClientOrderId = (
  tagPrefix: string,
  kind: PartialClientOrderId['kind'],
  rest: string,
): string => {
  if (!/^[0-9a-f]{6}$/.test(tagPrefix) || !/^[0-9a-f]{15}$/.test(rest)) {
    throw new InvalidClientOrderCauseError(`bad partial id parts ${tagPrefix}/${rest}`);
  }
  return tagPrefix + PARTIAL_FILLER + KIND_LETTERS[kind] + rest;
};

export const parsePartialClientOrderId = (id: string): PartialClientOrderId | null => {
  const match = PARTIAL_PATTERN.exec(id);
  if (!match) {
    return null;
  }
  return {
    tradeTagPrefix: match[1]!,
    kind: PARTIAL_KINDS[match[2] as keyof typeof PARTIAL_KINDS],
    partial: true,
  };
};

/**
 * The parsed id when it belongs to this trade, else null: a whole id by its
 * tag, a partial one (`PartialClientOrderId`) by the tag's first 24 bits.
 */
export const matchClientOrderId = (
  venueClientOrderId: string,
  tradeId: string,
): ParsedClientOrderId | PartialClientOrderId | null => {
  const parsed = parseClientOrderId(venueClientOrderId);
  if (parsed !== null) {
    return parsed.tradeTag === tradeTag(tradeId) ? parsed : null;
  }
  const partial = parsePartialClientOrderId(venueClientOrderId);
  return partial !== null &&
    partial.tradeTagPrefix === tradeTag(tradeId).slice(0, PARTIAL_TAG_LENGTH)
    ? partial
    : null;
};

/** Is this venue order a hedge of that maker fill of that trade? Its attempt, else null. */
export const hedgeAttemptFor = (
  venueClientOrderId: string,
  tradeId: string,
  makerFillId: string,
): number | null => {
  const parsed = parseClientOrderId(venueClientOrderId);
  return parsed?.kind === 'hedge' &&
    parsed.tradeTag === tradeTag(tradeId) &&
    parsed.makerFillHash === makerFillHash(tradeId, makerFillId)
    ? parsed.attempt
    : null;
};
