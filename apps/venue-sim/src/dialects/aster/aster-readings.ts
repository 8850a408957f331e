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
} as const satisfies Readings;
