import { AnswerLost, HttpFailure, type HttpReply } from '../../api/http-kit';
import { SimError } from '../../engine/types';
import { engineRefusalOf } from '../engine-refusal';
import { venueText } from './hl-signing';

/**
 * Hyperliquid's refusals in its own words. An action the venue refuses as a
 * whole is answered `200 {status: 'err', response: <text>}`; an order it
 * refuses inside an accepted action is one `{error: <text>}` among the
 * statuses of `200 {status: 'ok', response: {type: 'order', data: {statuses}}}`;
 * a body it cannot read is `422` with the deserialize text. A request over
 * the per-IP weight limit (H1, hl-rate-limits.ts) is answered `429` with a
 * `null` body before any of this (index.ts).
 *
 * Texts are the ones ccxt 4.5.84 maps (hyperliquid.js `exceptions.broad`) and
 * the venue's documentation and SDK examples show, each ending with the
 * asset index the venue appends (`asset=5`). Two are the simulator's own,
 * since the venue has no such refusal: a Gtc order that would take liquidity
 * (the engine cannot take and rest in one order) and the order types it does
 * not trade (triggers, resting reduce-only orders); they say so.
 */
export const hlText = {
  postOnlyCross: (bbo: string, asset: number) =>
    `Post only order would have immediately matched, bbo was ${bbo}. asset=${asset}`,
  iocNoMatch: (asset: number) =>
    `Order could not immediately match against any resting orders. asset=${asset}`,
  tick: (asset: number) => `Price must be divisible by tick size. asset=${asset}`,
  minValue: (asset: number) => `Order must have minimum value of $10. asset=${asset}`,
  margin: (asset: number) => `Insufficient margin to place order. asset=${asset}`,
  reduceOnly: (asset: number) => `Reduce only order would increase position. asset=${asset}`,
  invalidSize: (asset: number) => `Order has invalid size. asset=${asset}`,
  zeroSize: (asset: number) => `Order has zero size. asset=${asset}`,
  cancelMissing: (asset: number) =>
    `Order was never placed, already canceled, or filled. asset=${asset}`,
  duplicateCloid: (asset: number) => `Duplicate cloid. asset=${asset}`,
  builderNotApproved: 'Builder fee has not been approved.',
  unsupported: (what: string) => `The simulated venue does not trade ${what}.`,
  gtcWouldCross: (asset: number) =>
    `Gtc order would take liquidity; the simulated venue rests a Gtc order only when it does not cross. asset=${asset}`,
  expired: (expiresAfter: number, now: number) =>
    `Action expired: expiresAfter ${expiresAfter} is before ${now}.`,
  halted: 'Trading is halted.',
  rejected: (reason: string) => `Order rejected: ${reason}.`,
  unknown: 'Internal error.',
} as const;

/** A whole action refused: `{status: 'err', response: <text>}`. */
export class HlActionError extends Error {
  override readonly name = 'HlActionError';

  reply(): HttpReply {
    return { status: 200, body: { status: 'err', response: this.message } };
  }
}

/** A body the venue cannot read into its types. */
export class HlBodyError extends Error {
  override readonly name = 'HlBodyError';

  constructor() {
    super(venueText.cannotDeserialize);
  }

  reply(): HttpReply {
    return { status: 422, body: this.message };
  }
}

/** The answer to a refusal of the shared order path (OrderEntry) for a whole action. */
export function actionRefusal(error: unknown): HttpReply | AnswerLost {
  if (error instanceof AnswerLost) {
    return error;
  }
  if (error instanceof HlActionError || error instanceof HlBodyError) {
    return error.reply();
  }
  if (error instanceof HttpFailure) {
    switch (error.code) {
      case 'venue_halted':
        return new HlActionError(hlText.halted).reply();
      case 'order_expired':
        return new HlActionError(error.message).reply();
      default:
        break;
    }
  }
  return new HlActionError(hlText.unknown).reply();
}

/** One order refused with its own status text. */
export class HlOrderError extends Error {
  override readonly name = 'HlOrderError';
}

/** What the order path or the engine refused one order for, as that order's status error. */
export function orderRefusal(error: unknown, asset: number, bbo: () => string): string {
  const engine = error instanceof HttpFailure ? engineRefusalOf(error) : undefined;
  if (engine) {
    return engineRefusal(engine, asset, bbo);
  }
  if (error instanceof HttpFailure && error.code === 'rejected') {
    const reason = error.extra['reason'];
    return hlText.rejected(typeof reason === 'string' ? reason : 'by the venue');
  }
  if (error instanceof SimError) {
    return engineRefusal(error, asset, bbo);
  }
  if (error instanceof HlOrderError) {
    return error.message;
  }
  throw error;
}

function engineRefusal(error: SimError, asset: number, bbo: () => string): string {
  switch (error.code) {
    case 'post_only_would_cross':
      return hlText.postOnlyCross(bbo(), asset);
    case 'insufficient_margin':
      return hlText.margin(asset);
    case 'duplicate_client_order_id':
      return hlText.duplicateCloid(asset);
    case 'unknown_order':
    case 'order_not_open':
      return hlText.cancelMissing(asset);
    case 'invalid_order':
      return invalidOrder(error, asset);
    case 'rejected':
      // The engine's refusal of a reduce-only order with no position to reduce on its other side.
      return error.reason === 'reduce_only'
        ? hlText.reduceOnly(asset)
        : hlText.rejected(error.message);
    case 'unknown_market':
      return hlText.rejected(error.message);
  }
}

/** The engine's placement checks (order-validation.ts) as the venue's refusals. */
const FILTER_FAILURES: Readonly<Record<string, (asset: number) => string>> = {
  invalid_tick: hlText.tick,
  below_min_notional: hlText.minValue,
  invalid_size: hlText.invalidSize,
  below_min_size: hlText.invalidSize,
};

function invalidOrder(error: SimError, asset: number): string {
  const text = FILTER_FAILURES[error.reason ?? ''];
  return text ? text(asset) : hlText.rejected(error.message);
}
