import { LighterError } from './lighter-errors';

/**
 * A transaction's `L2TxAttributes`, as Lighter's signer writes them
 * (lighter-go types/txtypes/tx_attributes.go, types/tx_request.go
 * `ConstructL2TxAttributes`): a map from attribute type to value, written
 * `{"4": 1}` in JSON and `null` (or left out) when no attribute is set. At
 * most four attributes; each type has its range; fees need an integrator.
 */
export const ATTRIBUTE = {
  integratorAccountIndex: 1,
  integratorTakerFee: 2,
  integratorMakerFee: 3,
  skipNonce: 4,
  cancelAllMarketIndex: 5,
  selfTradeBehaviorMode: 6,
  selfTradeEqualityMode: 7,
} as const;

/** Each type's range (tx_attributes.go `AttributeTypeToConfig`). */
const RANGES: Readonly<Record<number, readonly [number, number]>> = {
  1: [0, 2 ** 48 - 2],
  2: [0, 1_000_000],
  3: [0, 1_000_000],
  4: [1, 1],
  5: [0, 255],
  6: [0, 3],
  7: [0, 1],
};
const MAX_ATTRIBUTES = 4;

export interface TxAttributes {
  skipNonce: boolean;
  integratorAccountIndex: number;
  integratorTakerFee: number;
  integratorMakerFee: number;
  /** A cancel-all of one market (type 5), when set. */
  cancelAllMarketIndex?: number;
}

const invalid = (detail: string) => new LighterError(400, 21501, `invalid tx info: ${detail}`);

/** The attributes of a transaction's JSON, checked as the signer's `Validate` checks them. */
export function parseTxAttributes(value: unknown): TxAttributes {
  const map = new Map<number, number>();
  if (value !== undefined && value !== null) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw invalid('L2TxAttributes');
    }
    for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
      const range = /^\d+$/.test(key) ? RANGES[Number(key)] : undefined;
      if (!range) {
        throw invalid(`attribute type ${key}`);
      }
      if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) {
        throw invalid(`attribute ${key}`);
      }
      if (raw < range[0] || raw > range[1]) {
        throw invalid(`attribute ${key} out of range`);
      }
      map.set(Number(key), raw);
    }
  }
  if (map.size > MAX_ATTRIBUTES) {
    throw invalid('too many attributes');
  }
  const of = (type: number) => map.get(type) ?? 0;
  const fees = of(ATTRIBUTE.integratorTakerFee) !== 0 || of(ATTRIBUTE.integratorMakerFee) !== 0;
  if (fees && of(ATTRIBUTE.integratorAccountIndex) === 0) {
    throw invalid('integrator fees without an integrator');
  }
  return {
    skipNonce: of(ATTRIBUTE.skipNonce) === 1,
    integratorAccountIndex: of(ATTRIBUTE.integratorAccountIndex),
    integratorTakerFee: of(ATTRIBUTE.integratorTakerFee),
    integratorMakerFee: of(ATTRIBUTE.integratorMakerFee),
    ...(map.has(ATTRIBUTE.cancelAllMarketIndex)
      ? { cancelAllMarketIndex: of(ATTRIBUTE.cancelAllMarketIndex) }
      : {}),
  };
}
