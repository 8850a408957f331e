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
  const waived = waivedMinimums(venue, accountId, market, command, lots);
  if (!waived.size && lots < market.minLots) {
    throw new SimError(
      'invalid_order',
      `size ${command.size} is below the minimum ${market.spec.minSize}`,
      'below_min_size',
    );
  }
  const notional = new Big(command.price).times(command.size);
  if (!waived.notional && market.minNotional && notional.lt(market.minNotional)) {
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

/**
 * The minimums a reduce-only order is spared (`PlaceCommand.reduceOnlyMinimums`).
 * "Closing" is a size equal to the whole position on the other side; whether
 * the order reduces at all is the desk's check, after this one.
 */
function waivedMinimums(
  venue: MarginVenue,
  accountId: string,
  market: MarketState,
  command: PlaceCommand,
  lots: number,
): { size: boolean; notional: boolean } {
  switch (command.reduceOnly ? (command.reduceOnlyMinimums ?? 'apply') : 'apply') {
    case 'apply':
      return { size: false, notional: false };
    case 'waive_notional':
      return { size: false, notional: true };
    case 'waive_all':
      return { size: true, notional: true };
    case 'waive_notional_if_closing': {
      const position = venue.account(accountId).positions.get(command.symbol)?.size;
      const closing =
        position !== undefined &&
        (command.side === 'sell' ? position.gt(0) : position.lt(0)) &&
        market.lot.toSteps(position.abs().toFixed()) === lots;
      return { size: false, notional: closing };
    }
  }
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
