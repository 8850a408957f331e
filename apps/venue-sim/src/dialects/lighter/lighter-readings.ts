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
  /**
   * How long after `sendTx` answers the sequencer executes an order.
   * `prompt`: at once; `held`: `queue_hold_ms` after the answer, the order
   * `in-progress` with nothing filled in the account's active orders until
   * then and nothing on the order stream. A cancel of a held order is
   * accepted (its nonce used) and executes right after the order does.
   */
  order_queue: {
    values: ['prompt', 'held'],
    default: 'prompt',
    documented: null,
    source:
      'apidocs.lighter.xyz/docs/account-types (taker latency: Standard 300 ms, Premium 200 ms ' +
      'down to 140 ms with staked LIT; maker and cancel 0 ms on Premium, 200 ms on Standard); ' +
      "elliottech/lighter-python lighter/models/order.py (status enum opens with 'in-progress', " +
      "'pending'); ccxt js/src/lighter.js parseOrderStatus (both read as open); what reads show " +
      'during the latency: not said',
  },
  /**
   * Whether a reduce-only order is spared the market's minimum base and
   * quote amounts (`min_base_amount`, `min_quote_amount` of orderBookDetails;
   * 21603 "invalid min amounts for market" in the error list). The documents
   * name no exemption for reduce-only orders; a third-party reading of the
   * "Signing Transactions" page has the minimums apply to maker orders only,
   * which the page as read here does not say:
   * - `applies`: a reduce-only order under either minimum is refused 21603;
   * - `waived`: it is taken (still on the size step).
   */
  reduce_only_min_amounts: {
    values: ['applies', 'waived'],
    default: 'applies',
    only: 'reduce_only',
    documented: null,
    source:
      'apidocs.lighter.xyz/docs/data-structures-constants-and-errors (21603 invalid min amounts for market, ' +
      '21732 reduce only increases position; order status canceled-reduce-only); apidocs.lighter.xyz/reference ' +
      'orderBookDetails (min_base_amount, min_quote_amount); lighter-go types/txtypes/create_order.go ' +
      '(ReduceOnly 0 or 1, no size rule)',
  },
  /**
   * What `sendTxBatch` does when the API refuses one of its transactions
   * (Lighter documents the endpoint, up to 50 transactions, and nothing of a
   * refusal inside one). Either way the answer is that transaction's refusal,
   * `{code, message}`, and nothing after it executes:
   * - `whole`: a refusal found by the checks made before anything executes
   *   (layout, signature form, one API key, nonces in sequence, the volume
   *   quota) refuses the batch: nothing executes, no nonce or quota is used
   *   (the SDKs' callers give every nonce of a failed batch back);
   * - `prefix`: the transactions before the refused one execute, as if each
   *   had been sent alone; the client learns which from the order reads.
   * A refusal found only when a transaction meets the book (a maker without
   * the margin, a client order index in use, a cancel of an order not
   * active) leaves the transactions before it executed under both.
   */
  tx_batch_refusal: {
    values: ['whole', 'prefix'],
    default: 'whole',
    only: 'batch',
    documented: null,
    source:
      'apidocs.lighter.xyz/docs/websocket-reference ("Send Batch Tx": up to 50 transactions; nothing on a ' +
      'refusal); apidocs.lighter.xyz/reference/sendtxbatch (tx_types, tx_infos; no error cases); ' +
      'elliottech/lighter-python examples/batch-orders/send_batch_tx_http.py (one API key, nonces in turn; ' +
      'no failure handling)',
  },
  /**
   * What one `sendTxBatch` counts against a Premium address's L2 bucket
   * ("sendTx/sendTxBatch per minute", 4000 at 0 staked LIT, the account-types
   * page): `per_request`, one (as the rate-limits page weighs the endpoint
   * like `sendTx`, 6 a request), or `per_transaction`, one per transaction.
   */
  tx_batch_l2: {
    values: ['per_request', 'per_transaction'],
    default: 'per_request',
    only: 'batch',
    documented: null,
    source:
      'apidocs.lighter.xyz/docs/account-types (Premium: "sendTx/sendTxBatch per minute"); ' +
      'apidocs.lighter.xyz/docs/rate-limits (sendTx, sendTxBatch, nextNonce weigh 6; no word on the batch length)',
  },
} as const satisfies Readings;

/**
 * The time `order_queue=held` holds a placement (`dialect-timings.ts`): a
 * Standard account's documented taker latency, the longest Lighter publishes.
 */
export const LIGHTER_TIMINGS = { queue_hold_ms: 300 } as const satisfies Timings;
