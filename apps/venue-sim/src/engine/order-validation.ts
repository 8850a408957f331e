import Big from 'big.js';
import type { MarginVenue } from './desk-venue';
import type { MarketState } from './market-state';
import { SimError, type PlaceCommand } from './types';

/**
 * The venue's checks before an order reaches the book: price on tick, size on
 * lot, minimum size and notional, and initial margin against free equity.
 */
export function validatePlacement(
  venue: MarginVenue,
  accountId: string,
  market: MarketState,
  command: PlaceCommand,
): { priceTicks: number; lots: number } {
  const priceTicks = market.price.toSteps(command.price);
  if (priceTicks === null) {
    throw new SimError(
      'invalid_order',
      `price ${command.price} is not a multiple of ${market.spec.tickSize}`,
      'invalid_tick',
    );
  }
  const lots = market.lot.toSteps(command.size);
  if (lots === null) {
    throw new SimError(
      'invalid_order',
      `size ${command.size} is not a multiple of ${market.spec.lotSize}`,
      'invalid_size',
    );
  }
  if (lots < market.minLots) {
    throw new SimError(
      'invalid_order',
      `size ${command.size} is below the minimum ${market.spec.minSize}`,
      'below_min_size',
    );
  }
  const notional = new Big(command.price).times(command.size);
  if (market.minNotional && notional.lt(market.minNotional)) {
    throw new SimError(
      'invalid_order',
      `notional ${notional.toFixed()} is below ${market.spec.minNotional}`,
      'below_min_notional',
    );
  }
  if (command.reduceOnly) {
    // It can only take a position down, which frees margin: nothing to hold for it.
    return { priceTicks, lots };
  }
  const required = notional.div(market.spec.maxLeverage);
  const free = freeMargin(venue, accountId);
  if (required.gt(free)) {
    throw new SimError(
      'insufficient_margin',
      `needs ${required.toFixed(2)} margin, ${free.toFixed(2)} free`,
      'insufficient_margin',
    );
  }
  return { priceTicks, lots };
}

/** Equity less the initial margin of positions (at mark) and open orders (at their price). */
export function freeMargin(venue: MarginVenue, accountId: string): Big {
  return venue.account(accountId).equity(venue.marks()).minus(usedMargin(venue, accountId));
}

export function usedMargin(venue: MarginVenue, accountId: string): Big {
  const account = venue.account(accountId);
  let used = new Big(0);
  for (const [symbol, position] of account.positions) {
    const market = venue.market(symbol);
    used = used.plus(position.size.abs().times(market.markPrice()).div(market.spec.maxLeverage));
  }
  for (const order of venue.registry.open(accountId)) {
    const market = venue.market(order.symbol);
    const remaining = market.lot.toBig(order.sizeLots - order.filledLots);
    used = used.plus(
      remaining.times(market.price.toBig(order.priceTicks)).div(market.spec.maxLeverage),
    );
  }
  return used;
}
