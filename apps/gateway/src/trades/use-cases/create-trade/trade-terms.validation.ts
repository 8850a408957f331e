import Big from 'big.js';
import { isVenueId, isWorstSpreadAllowed, type SpreadType } from '@sts/domain';
import { AppError } from '@sts/platform';
import type { CreateTradeRequest } from '../../dto/create-trade.request';

/**
 * Checks across fields that a per-field validator cannot see (400 each):
 * known venues, and a worst_spread that belongs to an aggressive quote and
 * itself satisfies the spread condition (decisions section 2).
 */
export function assertCoherentTerms(request: CreateTradeRequest): void {
  for (const venue of [request.long_exchange, request.short_exchange]) {
    if (!isVenueId(venue)) {
      throw new AppError('invalid_request', `unknown exchange ${venue}`);
    }
  }
  if (request.worst_spread === undefined) {
    return;
  }
  if (request.quote_mode !== 'aggressive') {
    throw new AppError(
      'invalid_request',
      'worst_spread bounds the aggressive peg: it needs quote_mode aggressive',
    );
  }
  const terms = {
    spreadType: (request.spread_type ?? 'absolute') as SpreadType,
    condition: request.spread_condition,
    targetSpread: new Big(request.target_spread),
  };
  if (!isWorstSpreadAllowed(terms, new Big(request.worst_spread), null)) {
    throw new AppError(
      'invalid_request',
      `worst_spread ${request.worst_spread} does not satisfy ${request.spread_condition} ${request.target_spread}`,
    );
  }
}

/** The maker leg rests; the other leg hedges. */
export function legsOf(request: CreateTradeRequest) {
  const long = { exchange: request.long_exchange, wallet: request.long_wallet.toLowerCase() };
  const short = { exchange: request.short_exchange, wallet: request.short_wallet.toLowerCase() };
  return request.maker_leg === 'long'
    ? { maker: long, hedge: short, long, short }
    : { maker: short, hedge: long, long, short };
}
