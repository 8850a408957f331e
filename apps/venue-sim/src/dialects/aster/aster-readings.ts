import type { Readings } from '../dialect-profiles';

const V3_DOC = 'github asterdex/api-docs V3(Recommended)/EN/aster-finance-futures-api-v3.md';

/**
 * What Aster's documents leave open, each with the values the dialect can
 * play (see the README's source table and `dialect-profiles.ts`).
 */
export const ASTER_READINGS = {
  /**
   * A post-only (GTX) order that would cross. Aster's v3 error list has no
   * code for it; -5022 is Binance USDⓈ-M's (since March 2023: "the Post Only
   * order will be rejected ... not recorded"). Binance futures before that,
   * and so a venue of that family, takes the order and expires it: status
   * EXPIRED, nothing filled, on the answer and as ORDER_TRADE_UPDATE x=EXPIRED.
   */
  post_only_cross: {
    values: ['refuse', 'expire'],
    default: 'refuse',
    documented: null,
    source: `${V3_DOC}: New Order, timeInForce "GTX - Good Till Crossing (Post Only)"; the Error Codes section names no post-only refusal (-5022 is Binance USDⓈ-M's); order status EXPIRED is listed`,
  },
  /**
   * Whether a main wallet may sign its own requests (`signer` = `user`). The
   * documents describe only an API wallet signing for the main wallet
   * ("user: Main account wallet address", "signer: API wallet address");
   * ccxt 4.5.84 signs with `signer` = `user` unless told a `signerAddress`.
   */
  main_wallet_signs: {
    values: ['accepted', 'refused'],
    default: 'accepted',
    documented: null,
    source: `${V3_DOC}: "Authentication signature payload" (user = main account wallet, signer = API wallet) and "Register and Approve Agent"; silent on signer = user. ccxt js/src/aster.js sign(): signer defaults to the wallet of the private key`,
  },
  /**
   * Whether a v3 request's `recvWindow` bounds it. The mainnet v3 document
   * lists no `recvWindow` on any endpoint (its only bound is the nonce's 10 s
   * window); the testnet v3 document lists it on New Order and Cancel Order
   * with Binance's "Timing security" text. Either way a request whose nonce
   * lags by more than 10 s is refused (documented), so the client's bound is
   * the nonce window; `ignored` checks that.
   */
  recv_window: {
    values: ['honoured', 'ignored'],
    default: 'honoured',
    documented: null,
    source: `${V3_DOC}: "V3 Nonce Mechanism" (10 s), no recvWindow listed; V3(Recommended)/EN/aster-finance-futures-api-testnet.md: New Order / Cancel Order list recvWindow, "Timing Security"`,
  },
  /**
   * What a New Order request without `newOrderRespType` is answered. The
   * document says the parameter defaults to "ACK", and only says what RESULT
   * returns ("the final status result of the order (FILLED or EXPIRED)" for
   * an IOC or GTX); by the Binance-futures meaning ACK answers the order as
   * taken, before matching (NEW, nothing executed; the document's response
   * example is such an order). `result`: the venue answers the final status
   * anyway. An explicit `newOrderRespType` is always honoured (the live
   * client sends RESULT).
   */
  placement_answer: {
    values: ['ack', 'result'],
    default: 'ack',
    documented: 'ack',
    source: `${V3_DOC}: New Order, newOrderRespType "ACK", "RESULT", default "ACK"; "If newOrderRespType is sent as RESULT: ... LIMIT order with special timeInForce: the final status result of the order (FILLED or EXPIRED) will be returned directly"; the response example is status NEW, executedQty 0`,
  },
  /**
   * How A2 (ORDERS, 1200 a minute per account) counts a `POST batchOrders`.
   * The document says only that "The order rate limit is counted against each
   * account" and gives the batch its IP weight (5); it does not say whether a
   * batch of n orders is n orders or one request on ORDERS. `per_order`
   * counts each order the batch carries (the strict reading); `per_request`
   * counts the batch once (as Binance USDⓈ-M, the API Aster's is shaped on,
   * is said to count it on its one-minute order limit: not checked against a
   * stored copy of Binance's page). Elements refused by their own
   * parameters reach no engine and count under neither.
   */
  batch_order_count: {
    values: ['per_order', 'per_request'],
    default: 'per_order',
    documented: null,
    only: 'batch',
    source: `${V3_DOC}: "Order Rate Limits" (L220-224: "counted against each account"), "Place Multiple Orders (TRADE)" (L2686-2720: Weight 5, "Max 5 orders"); silent on how a batch counts on ORDERS`,
  },
} as const satisfies Readings;
