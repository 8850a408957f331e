import type Big from 'big.js';
import {
  makerOrderSize,
  makerSideTouch,
  quoteMakerPrice,
  remainingSize,
  signOf,
} from '@sts/domain';
import type { AmendableTerms } from '../../trades/trade-record';
import type { MarketView } from '../market-view';

export type DesiredQuote =
  | { kind: 'order'; price: Big; size: Big }
  /** No valid price now (spread condition, crossed or stale book): hold no order and wait. */
  | { kind: 'none' }
  /** What is left cannot make one acceptable order: nothing more can fill. */
  | { kind: 'too_small' };

export interface QuoteSettings {
  quoteMode: 'default' | 'aggressive';
  worstSpread?: Big;
  /** Maker fills waiting, below the hedge venue's lot or minimums, to be hedged with the next. */
  unhedgedResidue?: Big;
}

/** This cycle's maker order: price from the quote rules, size from what remains (domain). */
export function desiredQuote(
  market: MarketView,
  terms: AmendableTerms,
  filled: Big,
  settings: QuoteSettings,
): DesiredQuote {
  const inputs = market.quoteInputs();
  if (inputs === null) {
    return { kind: 'none' };
  }
  const remaining = remainingSize(terms.targetSize, filled);
  if (signOf(remaining) <= 0) {
    return { kind: 'too_small' };
  }
  const price = quoteMakerPrice(settings.quoteMode, {
    makerLeg: market.makerLeg,
    terms: terms.spread,
    market: market.tradeMarket,
    makerTouch: inputs.makerTouch,
    hedgeReference: inputs.hedgeReference,
    ...(settings.worstSpread !== undefined ? { worstSpread: settings.worstSpread } : {}),
  });
  // Without a valid price the touch stands in, so a finished trade is seen as finished.
  const sizing = makerOrderSize({
    makerLeg: market.makerLeg,
    market: market.tradeMarket,
    makerPrice: price ?? makerSideTouch(market.makerLeg, inputs.makerTouch),
    hedgeReference: inputs.hedgeReference,
    sizeType: terms.sizeType,
    remaining,
    ...(settings.unhedgedResidue !== undefined
      ? { unhedgedResidue: settings.unhedgedResidue }
      : {}),
  });
  if (sizing.kind === 'too_small') {
    return { kind: 'too_small' };
  }
  return price === null ? { kind: 'none' } : { kind: 'order', price, size: sizing.size };
}
