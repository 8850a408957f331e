import type { HttpReply } from '../../api/http-kit';
import type { PublishedTable } from '../published-limits';

/**
 * Lighter's published limits for a PREMIUM account (docs/venues/rate-limits.md
 * §5, apidocs.lighter.xyz `rate-limits`):
 *
 * - L1: 24,000 weight a rolling minute per L1 address over REST reads, each
 *   weighing what the page's table says ("Other" endpoints 300, among them
 *   `account`, `accountActiveOrders` and `positionFunding`). A read that
 *   names no account (markets, books) counts against the IP's own L1 budget:
 *   the page limits "IP and L1 address", an address only for a request that
 *   says whose it is.
 * - L2: 4000 `sendTx` or `sendTxBatch` a minute per L1 address (0 staked LIT),
 *   a bucket of its own for Premium (LTR-RL-md, a copy of the page; the
 *   account-types page: "sendTx/sendTxBatch per minute").
 *
 * A STANDARD account (the default tier) has 60 requests a minute for
 * everything, orders and reads together, and `trades` only 40: one quoting
 * trade alone needs more (a requote is a cancel and a placement, each with a
 * nonce, and an order's fate is read as active then inactive orders), so the
 * fleet cannot trade on Standard and the dialect plays Premium (the live
 * client refuses a Standard account: lighter-account-tiers.ts). The volume
 * quota (L3) is lighter-volume-quota.ts. Not modelled: the
 * per-transaction-type limits (L4), the open order caps (L5), the WebSocket
 * limits (L6).
 */
export const LIGHTER_RATE_LIMITS: PublishedTable = {
  venue: 'lighter',
  pools: [
    {
      id: 'L1',
      scope: 'account',
      windowMs: 60_000,
      capacity: 24_000,
      weights: {
        nextNonce: 6,
        account: 300,
        accountLimits: 300,
        accountActiveOrders: 300,
        accountInactiveOrders: 100,
        trades: 600,
        positionFunding: 300,
        accountsByL1Address: 300,
        orderBookOrders: 300,
        orderBookDetails: 300,
        assetDetails: 300,
        'funding-rates': 300,
      },
    },
    {
      id: 'L2',
      scope: 'account',
      windowMs: 60_000,
      capacity: 4000,
      // A batch's length is 1 or its transactions (reading `tx_batch_l2`, lighter-tx-batch.ts).
      weights: { sendTx: 1, sendTxBatch: { of: (batch) => batch, text: 'tx_batch_l2: 1 or n' } },
    },
  ],
};

/**
 * Over a limit: "You will receive HTTP 429, or HTTP 405" (LTR-RL-md); no body
 * is documented, the body is the one the dialect always gave (ccxt maps the
 * status; it would map a 405 to ExchangeNotAvailable, so the dialect answers 429).
 */
export const OVER_LIMIT: HttpReply = {
  status: 429,
  body: { code: 23000, message: 'Too Many Requests!' },
};
