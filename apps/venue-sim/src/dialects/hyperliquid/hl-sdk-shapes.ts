/**
 * The venue's answer shapes as the independent SDK `@nktkas/hyperliquid`
 * 0.32.2 declares them (its `esm/api/**\/_methods/*.d.ts` and
 * `_base/commonSchemas.d.ts`), as jest matchers: every key the SDK declares,
 * of its type, and no other key unless the SDK marks it optional. The SDK
 * validates only its requests at run time (valibot), not the venue's
 * answers; these matchers hold the dialect's answers to its declared types.
 */

const decimal = expect.stringMatching(/^-?\d+(\.\d+)?$/);
const int = expect.any(Number);
const hex = expect.stringMatching(/^0x[0-9a-f]+$/);
/** A decimal string or null (an asymmetric matcher: jest 29 has no `toBeOneOf`). */
const decimalOrNull = {
  asymmetricMatch: (value: unknown) =>
    value === null || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)),
  toString: () => 'DecimalOrNull',
};

/** `FrontendOpenOrderSchema` (frontendOpenOrders, orderStatus's order). */
export const frontendOrderShape = (fields: Record<string, unknown> = {}) => ({
  coin: expect.any(String),
  side: expect.stringMatching(/^[BA]$/),
  limitPx: decimal,
  sz: decimal,
  oid: int,
  timestamp: int,
  origSz: decimal,
  triggerCondition: expect.any(String),
  isTrigger: expect.any(Boolean),
  triggerPx: decimal,
  children: expect.arrayContaining([]),
  isPositionTpsl: expect.any(Boolean),
  reduceOnly: expect.any(Boolean),
  orderType: 'Limit',
  tif: expect.stringMatching(/^(Gtc|Ioc|Alo)$/),
  cloid: null,
  ...fields,
});

/** `OpenOrderSchema` (openOrders, orderUpdates' order): `cloid` only when the order has one. */
export const openOrderShape = (fields: Record<string, unknown> = {}) => ({
  coin: expect.any(String),
  side: expect.stringMatching(/^[BA]$/),
  limitPx: decimal,
  sz: decimal,
  oid: int,
  timestamp: int,
  origSz: decimal,
  ...fields,
});

/** `OrderStatusResponse` for a found order. */
export const orderStatusShape = (order: Record<string, unknown>, status: string) => ({
  status: 'order',
  order: { order: frontendOrderShape(order), status, statusTimestamp: int },
});

/**
 * `UserFillSchema` (userFills, userFillsByTime, the userFills stream), plus
 * `cloid`: not in the SDK's type, carried by the dialect as ccxt 4.5.84 reads
 * it (hyperliquid.js parseTrade `cloid`); see the README's source table.
 */
export const userFillShape = (fields: Record<string, unknown> = {}) => ({
  coin: expect.any(String),
  px: decimal,
  sz: decimal,
  side: expect.stringMatching(/^[BA]$/),
  time: int,
  startPosition: decimal,
  dir: expect.any(String),
  closedPnl: decimal,
  hash: hex,
  oid: int,
  crossed: expect.any(Boolean),
  fee: decimal,
  tid: int,
  feeToken: expect.any(String),
  twapId: null,
  cloid: null,
  ...fields,
});

const marginSummary = {
  accountValue: decimal,
  totalNtlPos: decimal,
  totalRawUsd: decimal,
  totalMarginUsed: decimal,
};

/** `ClearinghouseStateResponse` with one-way cross positions. */
export const clearinghouseShape = (positions: number) => ({
  marginSummary,
  crossMarginSummary: marginSummary,
  crossMaintenanceMarginUsed: decimal,
  withdrawable: decimal,
  assetPositions: Array.from({ length: positions }, () => ({
    type: 'oneWay',
    position: {
      coin: expect.any(String),
      szi: decimal,
      leverage: { type: 'cross', value: int },
      entryPx: decimal,
      positionValue: decimal,
      unrealizedPnl: decimal,
      returnOnEquity: decimal,
      liquidationPx: decimalOrNull,
      marginUsed: decimal,
      maxLeverage: int,
      cumFunding: { allTime: decimal, sinceOpen: decimal, sinceChange: decimal },
    },
  })),
  time: int,
});

/** One `L2BookLevel`. */
export const levelShape = { px: decimal, sz: decimal, n: int };

/** `L2BookResponse` / `L2BookEvent`, its levels checked one by one with `levelShape`. */
export const l2BookShape = (coin: string) => ({
  coin,
  time: int,
  levels: [expect.arrayContaining([]), expect.arrayContaining([])],
});
