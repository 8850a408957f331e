import type { Readings } from '../dialect-profiles';

/** What Extended's documents leave open (see the README's source table and `dialect-profiles.ts`). */
export const EXTENDED_READINGS = {
  /**
   * What a read of an order placed a moment ago shows. The placement answers
   * the order's ids only and the official SDK learns the order's fate from
   * the account stream; whether a read right after the answer already shows
   * the fate is not said.
   */
  first_read: {
    values: ['fate', 'new_then_fate'],
    default: 'new_then_fate',
    documented: null,
    source:
      'x10xchange python_sdk (x10/perpetual/trading_client/order_management_module.py): placement returns {id, externalId}; fate on the account stream',
  },
} as const satisfies Readings;
