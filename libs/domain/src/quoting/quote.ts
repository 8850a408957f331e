import type Big from 'big.js';
import type { QuoteMode } from '../trade/trade-terms';
import { type AggressiveQuoteInput, aggressiveQuote } from './aggressive-quote';
import { defaultQuote } from './default-quote';

/** The price to rest the maker order at this quote cycle, or null to hold no order. */
export const quoteMakerPrice = (mode: QuoteMode, input: AggressiveQuoteInput): Big | null => {
  switch (mode) {
    case 'default':
      return defaultQuote(input);
    case 'aggressive':
      return aggressiveQuote(input);
  }
};
