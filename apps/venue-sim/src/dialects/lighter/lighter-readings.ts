import type { Readings } from '../dialect-profiles';
import type { Timings } from '../dialect-timings';

/** What Lighter's documents leave open (see the README's source table and `dialect-profiles.ts`). */
export const LIGHTER_READINGS = {
  /**
   * Which nonces a transaction signed with the `SkipNonce` attribute (every
   * transaction ccxt 4.5.84 signs: skip nonce 1, the millisecond clock as
   * the nonce) may carry. Lighter's documents say nonces are counted per API
   * key, that a transaction refused at the API does not use its nonce, and
   * that the signer can set `SkipNonce`; they do not say what it allows. Either:
   * - `increasing`: any nonce above the highest the key has used (accepted or
   *   being executed), gaps allowed; a lower one arriving late is refused
   *   (21104 "invalid nonce"), as a third-party SDK reads it ("skipping nonces
   *   does not remove nonce ordering requirements");
   * - `unused`: any nonce the key has not used, in any order.
   */
  skip_nonce_order: {
    values: ['increasing', 'unused'],
    default: 'increasing',
    documented: null,
    source:
      'apidocs.lighter.xyz/docs/trading ("Handle Nonces": per API key; an API-level error does not increase it; ' +
      'nothing on SkipNonce); elliottech/lighter-go types/txtypes/tx_attributes.go (AttributeTypeSkipTxNonce = 4, ' +
      'value 1; no rule); docs.rs lighter-sdk 0.1.1 examples/README.md (third party: ordering still required)',
  },
} as const satisfies Readings;

/**
 * The time `order_queue=held` holds a placement (`dialect-timings.ts`): a
 * Standard account's documented taker latency, the longest Lighter publishes.
 */
export const LIGHTER_TIMINGS = { queue_hold_ms: 300 } as const satisfies Timings;
