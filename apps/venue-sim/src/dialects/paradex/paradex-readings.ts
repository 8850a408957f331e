import type { Readings } from '../dialect-profiles';
import type { Timings } from '../dialect-timings';

/** The word the dialect closes a post-only order that would cross with, per `cancel_reason_words`. */
export const POST_ONLY_CANCEL_WORD = {
  post_only_would_cross: 'POST_ONLY_WOULD_CROSS',
  // A stand-in for any word the client does not know: none is published.
  unlisted: 'UNLISTED_REASON',
} as const;

/** What Paradex's documents leave open (see the README's source table and `dialect-profiles.ts`). */
export const PARADEX_READINGS = {
  /**
   * `GET /orders/by_client_id/{client_id}`: documented to return open orders
   * only. A closed order is then answered as an unknown one. `any` plays a
   * venue that finds closed orders too (as the dialect once did).
   */
  client_id_lookup: {
    values: ['open_only', 'any'],
    default: 'open_only',
    documented: 'open_only',
    source:
      'https://docs.paradex.trade/api/prod/orders/get-by-client-id: "Get an order by client id. ' +
      'Only returns orders in OPEN status." (closed orders: GET /orders-history with its client_id ' +
      'filter, https://docs.paradex.trade/api/prod/orders/get-orders)',
  },
  /**
   * The `cancel_reason` of a post-only order the engine closed because it
   * would have taken liquidity. Paradex publishes no list of reasons.
   */
  cancel_reason_words: {
    values: ['post_only_would_cross', 'unlisted'],
    default: 'post_only_would_cross',
    documented: null,
    source:
      'https://docs.paradex.trade/api/prod/orders/new: "If the order is fully filled or cannot be ' +
      'processed, the status changes to CLOSED and a cancel_reason code is provided"; the only ' +
      'word shown anywhere is NOT_ENOUGH_MARGIN (the order schema example, paradex-py ' +
      'paradex_py/api/generated/responses.py; ccxt js/src/paradex.js parseOrder also knows ' +
      'ORDER_EXCEEDS_POSITION_LIMIT). POST_ONLY_WOULD_CROSS is a guess; `unlisted` closes such an ' +
      'order with a word no client knows',
  },
  /**
   * `GET /orders/{order_id}`: documented to return open (or new) orders only.
   * A closed order (filled, canceled, or closed before the book) is then
   * answered as an unknown one, 404 `ORDER_ID_NOT_FOUND`. `any` plays a
   * venue that finds closed orders too, as the cancel page's "can be retried
   * from GET /orders/:id" and ccxt's example suggest (the dialect did so
   * before).
   */
  order_id_lookup: {
    values: ['open_only', 'any'],
    default: 'open_only',
    documented: 'open_only',
    source:
      'https://docs.paradex.trade/api/prod/orders/get: "Get an order by id. Only return orders in ' +
      'OPEN or NEW status."; ORDER_ID_NOT_FOUND from the error list of ' +
      "https://docs.paradex.trade/api/prod/orders/cancel; but that page says a cancel's " +
      'confirmation "can be retried from GET /orders/:id", and ccxt js/src/paradex.js fetchOrder\'s ' +
      'example shows a CLOSED order',
  },
  /**
   * How long an order stays `NEW` (queued for the risk checks) after its 201.
   * `prompt`: the engine acts on it at once, before the next request;
   * `held`: only `queue_hold_ms` after the answer (every read shows it NEW,
   * nothing filled, and the `orders` channel says nothing of it until then;
   * a cancel of it is answered 204 and acts right after the order reaches
   * the engine).
   */
  order_queue: {
    values: ['prompt', 'held'],
    default: 'prompt',
    documented: null,
    source:
      'https://docs.paradex.trade/api/prod/orders/new: the venue "queues the order for risk checks ' +
      '(order status=NEW)"; no time is given. https://docs.paradex.trade/releases/changelog/2025/3/20 ' +
      '(v1.87.5): "Cancel by client_order_id now accepts cancels for order in status NEW"',
  },
  /**
   * How current `GET /orders-history` is. `none`: every order as it is now;
   * `lagging`: each order as it was `history_lag_ms` ago (absent until it is
   * that old; a closed order shows its earlier state until its close is that
   * old).
   */
  history_lag: {
    values: ['none', 'lagging'],
    default: 'none',
    documented: null,
    source:
      'https://docs.paradex.trade/api/prod/orders/get-orders ("Get all orders for the account", ' +
      'filtered; no word on how soon an order or its close appears); paradex-py ' +
      'paradex_py/api/api_client.py fetch_orders_history (the same)',
  },
  /**
   * How many orders `POST /v1/orders/batch` takes. The endpoint's own page
   * says "Valid batch size is between 1-10 order(s)"; the API best-practices
   * page says a batch is "1 rate limit unit (regardless of 1-50 orders)".
   * `10` plays the endpoint's page (ccxt 4.5.84 also lists createOrders
   * max 10), `50` the best-practices page. Past it: BATCH_SIZE_OUT_OF_RANGE.
   */
  batch_max_orders: {
    values: ['10', '50'],
    default: '10',
    documented: '10',
    only: 'batch',
    source:
      'https://docs.paradex.trade/api/prod/orders/batch: "Valid batch size is between 1-10 ' +
      'order(s)"; https://docs.paradex.trade/trading/api-best-practices: "Single batch request = 1 ' +
      'rate limit unit (regardless of 1-50 orders)"; the code BATCH_SIZE_OUT_OF_RANGE from ' +
      'paradex-py paradex_py/api/generated/responses.py',
  },
} as const satisfies Readings;

/**
 * The times the readings above play with (`dialect-timings.ts`): a second's
 * hold is far beyond a risk check and well within the live client's wait
 * for a queued order (5 s); two seconds of history lag outlast an answer's
 * loss and the client's first look-up after it.
 */
export const PARADEX_TIMINGS = {
  queue_hold_ms: 1_000,
  history_lag_ms: 2_000,
} as const satisfies Timings;
