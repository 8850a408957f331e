export * from './venue/venue';
export * from './venue/rate-limits';
export * from './venue/cumulative-quota';
export * from './venue/egress-plan';
export * from './venue/client-egress';

export * from './decimal/decimal';
export * from './decimal/decimal-math';
export * from './decimal/compare';
export * from './decimal/decimal-key';
export * from './decimal/difference-equals';
export * from './market/market-rules';

export * from './trade/trade-terms';
export * from './trade/trade-status';
export * from './trade/trade-transitions';
export * from './trade/trade-ledger';

export * from './spread/legs';
export * from './spread/spread';
export * from './spread/spread-condition';

export type { Bound, Range } from './quoting/price-range';
export * from './quoting/quote-input';
export {
  conditionSpreadRange,
  isValidMakerPrice,
  validMakerPriceRange,
} from './quoting/valid-maker-price';
export * from './quoting/default-quote';
export { decimalsOf, unitsOf } from './quoting/fixed-point-quote';
export * from './quoting/aggressive-quote';
export * from './quoting/worst-spread';
export * from './quoting/quote-cushion';
export * from './quoting/quote';
export * from './quoting/touch-quote';
export * from './quoting/requote';
export * from './quoting/requote-urgency';
export * from './quoting/resting-quote-check';

export * from './sizing/size-type';
export * from './sizing/venue-minimums';
export * from './sizing/maker-order-size';
export * from './sizing/hedge-accumulator';

export * from './hedging/hedge-price';
export * from './hedging/execution-quality';
export * from './hedging/residual-unwind';
export * from './costs/trade-costs';
export * from './money/usd-stablecoins';
export * from './statistics/distribution';

export * from './orders/client-order-id';

export * from './fast-move-guard/fast-move-settings';
export * from './fast-move-guard/adverse-move';
export * from './fast-move-guard/cushion-threshold';
export {
  type FastMoveGuardState,
  type FastMoveGuardStats,
  type RestingQuote,
  finishFastMoveGuard,
  isQuotingHeld,
  startFastMoveGuard,
} from './fast-move-guard/fast-move-guard-state';
export * from './fast-move-guard/observe-hedge-reference';
export * from './fast-move-guard/classify-maker-fill';
export * from './orders/order-fate';
export * from './orders/maker-order-ledger';
