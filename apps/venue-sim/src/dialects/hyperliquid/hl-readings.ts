import type { Readings } from '../dialect-profiles';

/** What Hyperliquid's documents leave open (see the README's source table and `dialect-profiles.ts`). */
export const HYPERLIQUID_READINGS = {
  /**
   * An order sent with a cloid an earlier order of the same address already
   * carries. The venue's documents name the cloid only as "a 128 bit hex
   * string" to look an order up or cancel it by; neither they, the "Error
   * responses" page, the official Python SDK nor ccxt 4.5.84 (no duplicate
   * entry in hyperliquid.js `exceptions`) say whether a cloid is unique for
   * good or only among live orders, nor the refusal's words. Either way the
   * order is refused in the dialect's text `Duplicate cloid. asset=N`
   * (assumed; no published text):
   * - `refuse`: refused for as long as the venue knows the first order, open
   *   or closed;
   * - `refuse_while_open`: refused only while the first order rests; once it
   *   is filled or canceled the cloid places a new order, and a look-up by
   *   the cloid then finds the newest.
   */
  duplicate_cloid: {
    values: ['refuse', 'refuse_while_open'],
    default: 'refuse',
    documented: null,
    source:
      'hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/exchange-endpoint ("c": cloid, no uniqueness rule), ' +
      '.../api/error-responses (no duplicate-cloid entry), .../api/info-endpoint (orderStatus by oid or cloid); ' +
      'hyperliquid-dex/hyperliquid-python-sdk hyperliquid/utils/types.py (Cloid: 16 bytes, nothing on reuse); ' +
      'ccxt 4.5.84 js/src/hyperliquid.js exceptions.broad (no duplicate text)',
  },
  /**
   * Whether a fill names its order's cloid. The documents' fill (info
   * endpoint `userFills`, websocket `WsFill`) and the fill type of the
   * independent SDK @nktkas/hyperliquid (`UserFillSchema`) have no `cloid`;
   * the live client reads one where a fill carries it and otherwise learns
   * the order's cloid by looking the order up by oid:
   * - `carried`: `cloid` on every fill (null for an order sent without one);
   * - `absent`: no `cloid` key on fills.
   */
  fill_cloid: {
    values: ['carried', 'absent'],
    default: 'carried',
    documented: null,
    source:
      'hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/info-endpoint (userFills) and .../websocket/subscriptions (WsFill): ' +
      'no cloid; @nktkas/hyperliquid 0.32.2 esm/api/info/_methods/_base/commonSchemas.d.ts UserFillSchema: no cloid',
  },
  /**
   * A `scheduleCancel` arming once the address's triggers of the day are
   * spent. The documents say only "Once the time comes, all open orders will
   * be canceled and a trigger count will be incremented. The max number of
   * triggers per day is 10. This trigger count is reset at 00:00 UTC"; they
   * give no answer for an arming past the count, and neither the official
   * Python SDK, @nktkas/hyperliquid nor ccxt 4.5.84 quotes one:
   * - `refuse`: the arming is refused as a whole (`status: err`) in the
   *   dialect's text `Too many scheduled cancel triggers today. Max: 10.`
   *   (assumed);
   * - `accept_inert`: the arming is answered `ok`, and when its time comes
   *   nothing is canceled (the count is spent). The worst case for a client:
   *   an armed switch that does not fire.
   */
  schedule_cancel_spent: {
    values: ['refuse', 'accept_inert'],
    default: 'refuse',
    documented: null,
    source:
      'hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/exchange-endpoint#schedule-cancel-dead-mans-switch ' +
      '(10 triggers a day, reset 00:00 UTC; no refusal text); @nktkas/hyperliquid 0.32.2 src/api/exchange/_methods/scheduleCancel.ts; ' +
      'ccxt 4.5.84 js/src/hyperliquid.js cancelAllOrdersAfter (quotes only the volume refusal)',
  },
  /**
   * Whether a reduce-only order is spared the $10 minimum. The documents give
   * one minimum for every order (`MinTradeNtl`, "Order must have minimum value
   * of $10."), name no exemption for reduce-only or closing orders, and the
   * Python SDK's `market_close` sends a whole position of any size as a
   * reduce-only IOC without a word on it:
   * - `applies`: a reduce-only order under $10 is refused like any other;
   * - `waived`: a reduce-only order is taken whatever its value (its size
   *   still on szDecimals).
   */
  reduce_only_min_value: {
    values: ['applies', 'waived'],
    default: 'applies',
    only: 'reduce_only',
    documented: null,
    source:
      'hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/error-responses (MinTradeNtl "Order must have ' +
      'minimum value of $10.", ReduceOnly "Reduce only order would increase position."; no exemption named); ' +
      'hyperliquid-dex/hyperliquid-python-sdk hyperliquid/exchange.py market_close (reduce_only=True, any size)',
  },
} as const satisfies Readings;
