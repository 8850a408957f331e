import type { Readings } from '../dialect-profiles';
import type { Timings } from '../dialect-timings';

/** What Extended's documents leave open (see the README's source table and `dialect-profiles.ts`). */
export const EXTENDED_READINGS = {
  /**
   * What a read of an order placed a moment ago shows. Placement answers the
   * order's ids only (`{id, externalId}`) and the engine acts on it after; the
   * official SDK learns the fate from the first account-stream update of the
   * order, never from a read. Whether a read right after the answer already
   * shows the fate (`fate`) or shows `NEW` until the engine acted
   * (`new_then_fate`; a resting order is `NEW` too) is not said.
   */
  first_read: {
    values: ['fate', 'new_then_fate'],
    default: 'new_then_fate',
    documented: null,
    source:
      'x10xchange/python_sdk x10/perpetual/orders.py (PlacedOrderModel {id, external_id}), ' +
      'x10/perpetual/simple_client/simple_trading_client.py (create_and_place_order waits for the ' +
      "order's first account-stream update), examples/placed_order_example_advanced.py; ccxt " +
      "js/src/extended.js createOrder (sets status 'NEW' itself); reads right after: not said",
  },
  /**
   * The answer to a cancel of an order that is no longer open (filled,
   * cancelled, expired, rejected). Neither the documents nor the SDK
   * (`cancel_order` parses an EmptyModel and raises on any status > 299)
   * show it; ccxt lists 1142 only as "Edit order not found".
   */
  cancel_not_open: {
    values: ['code_1142', 'bare_404', 'ok'],
    default: 'code_1142',
    documented: null,
    source:
      'x10xchange/python_sdk x10/perpetual/trading_client/order_management_module.py cancel_order, ' +
      "x10/utils/http.py handle_known_errors; ccxt js/src/extended.js exceptions.exact '1142'; " +
      'the answer for a closed order: not said',
  },
  /**
   * How long the engine takes to act on a placement after its answer.
   * `prompt`: a moment (QUEUE_MS, extended-queue.ts); `held`: `queue_hold_ms`,
   * every read showing the order `NEW`, nothing filled, and the account
   * stream silent about it until then. A cancel of a held order is answered
   * OK and reaches the engine right after the order does.
   */
  order_queue: {
    values: ['prompt', 'held'],
    default: 'prompt',
    documented: null,
    source:
      'x10xchange/python_sdk x10/perpetual/orders.py (PlacedOrderModel {id, external_id}: the ' +
      'answer carries no state), x10/perpetual/simple_client/simple_trading_client.py ' +
      '(create_and_place_order and cancel_order both wait up to 5 s for the account stream); ' +
      'how long the venue takes: not said',
  },
  /**
   * What the account stream sends first of an order. `fate`: its state once
   * the engine acted (resting NEW, FILLED, EXPIRED, REJECTED...);
   * `new_then_fate`: first `NEW` with nothing filled, as the order is
   * accepted, then that state (a taker IOC filled at once is streamed NEW,
   * then FILLED).
   */
  stream_first: {
    values: ['fate', 'new_then_fate'],
    default: 'fate',
    documented: null,
    source:
      'x10xchange/python_sdk x10/perpetual/simple_client/simple_trading_client.py ' +
      "(create_and_place_order returns the order's first ORDER update, whatever its status: a " +
      'timing helper, not a promise of what comes first), x10/perpetual/orders.py OrderStatus ' +
      '(NEW among the statuses); ccxt js/src/pro/extended.js handleOrders (every update parsed ' +
      'alike); whether a taker is streamed NEW first: not said',
  },
  /**
   * Whether a reduce-only order is spared the market's minimum trade size.
   * The error list refuses an order under it (1120 "Order quantity less than
   * min trade size, based on market-specific trading rules") and a
   * reduce-only one for its position (1136-1138), and names no exemption;
   * the SDK checks no size:
   * - `applies`: a reduce-only order under the minimum is refused 1120 like
   *   any other;
   * - `waived`: it is taken (still on the size step).
   */
  reduce_only_min_size: {
    values: ['applies', 'waived'],
    default: 'applies',
    only: 'reduce_only',
    documented: null,
    source:
      'api.docs.extended.exchange error codes (1120 min trade size; 1136 reduce-only size exceeds the ' +
      'position, 1137 no position, 1138 same side), as ccxt 4.5.84 js/src/extended.js exceptions.exact ' +
      'lists them; x10xchange/python_sdk x10/perpetual/orders.py (reduce_only, REDUCE_ONLY_FAILED)',
  },
} as const satisfies Readings;

/**
 * The time `order_queue=held` holds a placement (`dialect-timings.ts`): past
 * the live client's first reads of a queued order (250 and 500 ms) and well
 * within its wait for the stream (5 s).
 */
export const EXTENDED_TIMINGS = { queue_hold_ms: 1_000 } as const satisfies Timings;
