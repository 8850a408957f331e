import { AnswerLost, HttpFailure, type HttpReply } from '../../api/http-kit';
import { SimError } from '../../engine/types';
import { engineRefusalOf } from '../engine-refusal';
import { OverPublishedLimit } from '../published-limits';

/**
 * Aster's refusals as the venue words them: `{code, msg}` with a negative
 * code and HTTP 400 unless said otherwise. Codes and texts are Aster's futures
 * v3 error list (github asterdex/api-docs, "V3(Recommended)/EN/
 * aster-finance-futures-api-v3.md", section Error Codes); -1021 is its
 * testnet list's INVALID_TIMESTAMP, -4225 the "Nonce Expired" answer shown in
 * its Noop example, -5022 and -4116 Binance USDⓈ-M futures codes (Aster's
 * engine is Binance-futures-derived; ccxt 4.5.84 maps neither for aster).
 */
export const ASTER_ERRORS = {
  unknown: {
    status: 500,
    code: -1000,
    msg: 'An unknown error occured while processing the request.',
  },
  /** Over A1, the IP's request weight (L5225-5267; limits L198-216). */
  rateLimited: {
    status: 429,
    code: -1003,
    msg: 'Too many requests; current limit is %s requests per minute. Please use the websocket for live updates to avoid polling the API.',
  },
  /** Over A2, the account's new orders (L5225-5267; limits L220-224). */
  tooManyOrders: {
    status: 429,
    code: -1015,
    msg: 'Too many new orders; current limit is %s orders per %s.',
  },
  serviceUnavailable: { status: 503, code: -1016, msg: 'This service is no longer available.' },
  unsupported: { status: 400, code: -1020, msg: 'This operation is not supported.' },
  outsideRecvWindow: {
    status: 400,
    code: -1021,
    msg: 'Timestamp for this request is outside of the recvWindow.',
  },
  badSignature: { status: 400, code: -1022, msg: 'Signature for this request is not valid.' },
  duplicateParameter: {
    status: 400,
    code: -1101,
    msg: 'Duplicate values for a parameter detected.',
  },
  mandatoryParameter: {
    status: 400,
    code: -1102,
    msg: "Mandatory parameter '%s' was not sent, was empty/null, or malformed.",
  },
  eitherParameter: {
    status: 400,
    code: -1102,
    msg: "Param '%s' or '%s' must be sent, but both were empty/null!",
  },
  invalidTimeInForce: { status: 400, code: -1115, msg: 'Invalid timeInForce.' },
  invalidOrderType: { status: 400, code: -1116, msg: 'Invalid orderType.' },
  invalidSide: { status: 400, code: -1117, msg: 'Invalid side.' },
  badSymbol: { status: 400, code: -1121, msg: 'Invalid symbol.' },
  invalidListenKey: { status: 400, code: -1125, msg: 'This listenKey does not exist.' },
  invalidParameter: { status: 400, code: -1130, msg: "Data sent for parameter '%s' is not valid." },
  invalidNewOrderRespType: { status: 400, code: -1136, msg: 'Invalid newOrderRespType.' },
  newOrderRejected: { status: 400, code: -2010, msg: 'NEW_ORDER_REJECTED' },
  unknownOrderSent: { status: 400, code: -2011, msg: 'Unknown order sent.' },
  noSuchOrder: { status: 400, code: -2013, msg: 'Order does not exist.' },
  notAuthorized: {
    status: 401,
    code: -2015,
    msg: 'Invalid API-key, IP, or permissions for action.',
  },
  marginInsufficient: { status: 400, code: -2019, msg: 'Margin is insufficient.' },
  reduceOnlyRejected: { status: 400, code: -2022, msg: 'ReduceOnly Order is rejected.' },
  priceBelowZero: { status: 400, code: -4001, msg: 'Price less than 0.' },
  positionSideMismatch: {
    status: 400,
    code: -4061,
    msg: "Order's position side does not match user's setting.",
  },
  qtyBelowZero: { status: 400, code: -4003, msg: 'Quantity less than zero.' },
  qtyBelowMin: { status: 400, code: -4004, msg: 'Quantity less than min quantity.' },
  priceOffTick: { status: 400, code: -4014, msg: 'Price not increased by tick size.' },
  invalidClientOrderId: { status: 400, code: -4015, msg: 'Client order id is not valid.' },
  qtyOffStep: { status: 400, code: -4023, msg: 'Qty not increased by step size.' },
  duplicateClientOrderId: { status: 400, code: -4116, msg: 'ClientOrderId is duplicated.' },
  minNotional: {
    status: 400,
    code: -4164,
    msg: "Order's notional must be no smaller than %s (unless you choose reduce only)",
  },
  /** A batch of no orders or more than 5 (error list L5774-5777; "Place Multiple Orders" L2695). */
  invalidBatchSize: {
    status: 400,
    code: -4082,
    msg: 'Invalid number of batch place orders: %s',
  },
  nonceExpired: { status: 400, code: -4225, msg: 'Nonce Expired' },
  postOnlyRejected: {
    status: 400,
    code: -5022,
    msg: 'Due to the order could not be executed as maker, the Post Only order will be rejected. The order will not be recorded in the order history',
  },
} as const satisfies Record<string, { status: number; code: number; msg: string }>;

export type AsterErrorName = keyof typeof ASTER_ERRORS;

/** A refusal in Aster's words; `args` fill the `%s` of its message in order. */
export class AsterError extends Error {
  readonly status: number;
  readonly code: number;

  constructor(
    readonly kind: AsterErrorName,
    args: readonly (string | number)[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    const spec = ASTER_ERRORS[kind];
    let index = 0;
    super(spec.msg.replace(/%s/g, () => String(args[index++] ?? '')));
    this.status = spec.status;
    this.code = spec.code;
  }

  reply(): HttpReply {
    return {
      status: this.status,
      body: { code: this.code, msg: this.message },
      headers: this.headers,
    };
  }
}

/**
 * What a refusal of the shared order path (OrderEntry: rate limit, freeze,
 * expiry, reject-next) or of the engine is on Aster. `tif` picks the words of
 * a crossing maker order: GTX is Aster's post-only refusal; a GTC order the
 * simulator cannot rest (it would take liquidity first) is refused as an
 * operation it does not support.
 */
export interface AsterErrorContext {
  /** The time in force of the order placed. */
  tif?: string;
  /** A cancel: an order the venue cannot find is an unknown order sent, not a missing one. */
  cancel?: boolean;
}

export function toAsterError(
  error: unknown,
  context: AsterErrorContext = {},
): AsterError | AnswerLost {
  if (error instanceof AsterError || error instanceof AnswerLost) {
    return error;
  }
  if (error instanceof HttpFailure) {
    return fromOrderEntry(error, context);
  }
  if (error instanceof SimError) {
    return fromEngine(error, context);
  }
  return new AsterError('unknown');
}

function fromOrderEntry(failure: HttpFailure, context: AsterErrorContext): AsterError {
  const engine = engineRefusalOf(failure);
  if (engine) {
    return fromEngine(engine, context);
  }
  switch (failure.code) {
    case 'rate_limited':
      return overLimitError(failure);
    case 'order_expired':
      return new AsterError('outsideRecvWindow');
    case 'rejected':
      return new AsterError('newOrderRejected');
    case 'venue_halted':
      return new AsterError('serviceUnavailable');
    default:
      return new AsterError('unknown');
  }
}

/** Over a published pool: A2 counts new orders (-1015), A1 the IP's weight (-1003). */
export function overLimitError(failure: HttpFailure): AsterError {
  if (!(failure instanceof OverPublishedLimit)) {
    return new AsterError('rateLimited', ['']);
  }
  const { id, capacity, windowMs } = failure.pool;
  return id === 'A2'
    ? new AsterError('tooManyOrders', [capacity, intervalName(windowMs)])
    : new AsterError('rateLimited', [capacity]);
}

/** A window as Aster's rateLimits count intervals: `intervalNum` of `MINUTE` or `SECOND`. */
export function asterInterval(windowMs: number): { num: number; unit: 'MINUTE' | 'SECOND' } {
  return windowMs % 60_000 === 0
    ? { num: windowMs / 60_000, unit: 'MINUTE' }
    : { num: windowMs / 1_000, unit: 'SECOND' };
}

/** A window in an Aster refusal's words: `MINUTE`, or `10 SECOND`. */
function intervalName(windowMs: number): string {
  const { num, unit } = asterInterval(windowMs);
  return num === 1 ? unit : `${num} ${unit}`;
}

function fromEngine(error: SimError, context: AsterErrorContext): AsterError {
  switch (error.code) {
    case 'unknown_market':
      return new AsterError('badSymbol');
    case 'post_only_would_cross':
      return new AsterError(context.tif === 'GTC' ? 'unsupported' : 'postOnlyRejected');
    case 'insufficient_margin':
      return new AsterError('marginInsufficient');
    case 'duplicate_client_order_id':
      return new AsterError('duplicateClientOrderId');
    case 'unknown_order':
      return new AsterError(context.cancel ? 'unknownOrderSent' : 'noSuchOrder');
    case 'order_not_open':
      return new AsterError('unknownOrderSent');
    case 'rejected':
      // The engine's refusal of a reduce-only order with no position to reduce on its other side.
      return new AsterError(
        error.reason === 'reduce_only' ? 'reduceOnlyRejected' : 'newOrderRejected',
      );
    case 'invalid_order':
      return fromInvalidOrder(error);
  }
}

/** The engine's placement checks (order-validation.ts) as Aster's filter failures. */
const FILTER_FAILURES: Readonly<Record<string, AsterErrorName>> = {
  invalid_tick: 'priceOffTick',
  invalid_size: 'qtyOffStep',
  below_min_size: 'qtyBelowMin',
  below_min_notional: 'minNotional',
};

function fromInvalidOrder(error: SimError): AsterError {
  const kind = FILTER_FAILURES[error.reason ?? ''] ?? 'newOrderRejected';
  // The engine's message ends with the minimum it applied ("... is below 5").
  return new AsterError(kind, kind === 'minNotional' ? [error.message.split(' ').pop() ?? ''] : []);
}
