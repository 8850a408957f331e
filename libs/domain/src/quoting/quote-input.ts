import type Big from 'big.js';
import { type BookTouch, type TradeMarket, coarserTickSize } from '../market/market-rules';
import type { SpreadBasis, SpreadTerms } from '../spread/spread';
import type { MakerLeg } from '../trade/trade-terms';

/** Everything a quote cycle looks at. */
export interface QuoteInput {
  makerLeg: MakerLeg;
  terms: SpreadTerms;
  market: TradeMarket;
  /** The maker venue's best bid and ask. */
  makerTouch: BookTouch;
  /** H: the touch the hedge would take now (see hedgeReferenceFrom). */
  hedgeReference: Big;
}

export const spreadBasisOf = (input: QuoteInput): SpreadBasis => ({
  hedgeReference: input.hedgeReference,
  coarserTickSize: coarserTickSize(input.market),
});
