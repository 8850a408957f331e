import type { Trade } from '@sts/sdk';
import Big from 'big.js';

export type ResidualFields = Pick<
  Trade,
  | 'market'
  | 'maker_leg'
  | 'long_exchange'
  | 'short_exchange'
  | 'residual_unhedged'
  | 'residual_unwound'
>;

/**
 * What a trade left unhedged at its end (decisions 2), for the trader to read:
 * maker fills below the hedge venue's minimum (`unhedged`), what the
 * reduce-only unwind on the maker venue took back (`unwound`), and what stays
 * one-sided in the maker wallet (`left`). Null when nothing was left.
 */
export interface ResidualSummary {
  unhedged: string;
  unwound: string;
  left: string;
  makerExchange: string;
  /** One sentence: what happened to it. */
  text: string;
  /** Something stays one-sided: shown as a warning, not a note. */
  oneSided: boolean;
}

export function residualSummary(trade: ResidualFields): ResidualSummary | null {
  const unhedged = new Big(trade.residual_unhedged);
  if (unhedged.lte(0)) {
    return null;
  }
  const unwound = new Big(trade.residual_unwound);
  const left = unhedged.minus(unwound);
  const makerExchange = trade.maker_leg === 'long' ? trade.long_exchange : trade.short_exchange;
  const what = `${unhedged.toFixed()} ${trade.market} of the maker fills could not be hedged`;
  const text = left.lte(0)
    ? `${what}; it was unwound on ${makerExchange} (reduce-only IOC).`
    : unwound.gt(0)
      ? `${what}; ${unwound.toFixed()} was unwound on ${makerExchange}, ${left.toFixed()} ${trade.market} stays one-sided in the maker wallet there.`
      : `${what} nor unwound: ${left.toFixed()} ${trade.market} stays one-sided in the maker wallet on ${makerExchange}.`;
  return {
    unhedged: unhedged.toFixed(),
    unwound: unwound.toFixed(),
    left: left.toFixed(),
    makerExchange,
    text,
    oneSided: left.gt(0),
  };
}
