/**
 * The enumerations of a trade's terms, as the API spells them, with guards
 * the gateway uses to validate request bodies.
 */

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (values as readonly string[]).includes(value);

/** Which leg rests as the maker order; the other leg is the hedge. */
export const MAKER_LEGS = ['long', 'short'] as const;
export type MakerLeg = (typeof MAKER_LEGS)[number];
export const isMakerLeg = oneOf(MAKER_LEGS);

export const SIDES = ['buy', 'sell'] as const;
export type Side = (typeof SIDES)[number];
export const isSide = oneOf(SIDES);

export const SPREAD_CONDITIONS = ['gte', 'gt', 'lte', 'lt', 'eq'] as const;
export type SpreadCondition = (typeof SPREAD_CONDITIONS)[number];
export const isSpreadCondition = oneOf(SPREAD_CONDITIONS);

export const SPREAD_TYPES = ['absolute', 'percentage', 'bps', 'ticks'] as const;
export type SpreadType = (typeof SPREAD_TYPES)[number];
export const isSpreadType = oneOf(SPREAD_TYPES);
export const DEFAULT_SPREAD_TYPE: SpreadType = 'absolute';

export const SIZE_TYPES = ['base', 'notional'] as const;
export type SizeType = (typeof SIZE_TYPES)[number];
export const isSizeType = oneOf(SIZE_TYPES);
export const DEFAULT_SIZE_TYPE: SizeType = 'base';

export const EXECUTION_TYPES = ['maker_taker'] as const;
export type ExecutionType = (typeof EXECUTION_TYPES)[number];
export const isExecutionType = oneOf(EXECUTION_TYPES);

/**
 * `default` is internal: it is what a trade without `quote_mode` does (join the
 * touch). The API shows only `aggressive`, so the gateway accepts just that one
 * (`isPublicQuoteMode`) and stores `default` when the field is absent.
 */
export const QUOTE_MODES = ['default', 'aggressive'] as const;
export type QuoteMode = (typeof QUOTE_MODES)[number];
export const isQuoteMode = oneOf(QUOTE_MODES);
export const PUBLIC_QUOTE_MODES = ['aggressive'] as const;
export const isPublicQuoteMode = oneOf(PUBLIC_QUOTE_MODES);
