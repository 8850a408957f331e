import type { WireError } from '@sts/venues';
import { SimError, type SimErrorCode } from '../engine/types';
import { HttpFailure } from './http-kit';
import { wireOrder } from './wire-format';
import type { VenueEngine } from '../engine/venue-engine';

const STATUS: Record<SimErrorCode, number> = {
  unknown_market: 404,
  invalid_order: 400,
  post_only_would_cross: 400,
  insufficient_margin: 400,
  duplicate_client_order_id: 409,
  unknown_order: 404,
  order_not_open: 409,
  rejected: 400,
};

/** A refusal as the body of an error answer (also a replace's `place_error`). */
export function wireError(venue: VenueEngine, error: SimError): WireError {
  return {
    error: error.message,
    code: error.code,
    ...(error.reason ? { reason: error.reason } : {}),
    ...(error.order ? { order: wireOrder(venue, error.order) } : {}),
  };
}

/** The HTTP edge's one mapping of venue refusals to statuses and bodies. */
export function toHttpFailure(error: unknown, venue: VenueEngine): unknown {
  if (!(error instanceof SimError)) {
    return error;
  }
  const { error: message, code, ...extra } = wireError(venue, error);
  return new HttpFailure(STATUS[error.code], code, message, extra);
}
