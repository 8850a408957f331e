import type { Order } from 'ccxt';
import { VenueNetworkError } from '../errors';
import { EXPIRY_SETTLE_MARGIN_MS } from '../paper/paper-order-entry';
import type { CcxtExchangeLike } from './ccxt-exchange';
import {
  hasExpiryBlocks,
  hyperliquidCancelOrder,
  hyperliquidCreateOrder,
} from './order-expiry-hyperliquid';

/**
 * Aster's v3 nonce window: a request whose nonce (microseconds, ccxt signs
 * `milliseconds() * 1000` when it sends) lags the venue's clock by more than
 * 10 s is refused (V3(Recommended)/EN/aster-finance-futures-api-v3.md, "V3
 * Nonce Mechanism"). The one expiry of a v3 request the mainnet documents
 * name; `recvWindow` is listed on the testnet v3 document only, so it is sent
 * but not relied on.
 */
export const ASTER_NONCE_WINDOW_MS = 10_000;

/** ccxt's answer timeout when the instance does not say (ccxt's own default). */
const CCXT_DEFAULT_TIMEOUT_MS = 10_000;

/** One order request as sent: when, and until when the venue may still take it. */
export interface RequestStamp {
  sentAtMs: number;
  /** The expiry the request carries to the venue (ms epoch), if the venue takes one. */
  expiresAtMs: number;
}

/** ccxt's `createOrder` arguments after the symbol. */
export interface CreateArgs {
  side: 'buy' | 'sell';
  amount: number;
  price: number;
  params: Record<string, unknown>;
}

/**
 * The expiry of this client's order requests on the venue, per venue, as
 * the paper client does it with `expires_at_ms`: a request lives its
 * `lifetimeMs` (a hedge IOC: a fraction of the hedge timeout) or else the
 * instance's answer timeout, and a lost answer settles by its send time plus
 * the longest it may live on the venue plus the settle margin.
 *
 * - Hyperliquid: `expiresAfter` signed into the action (ccxt's createOrder
 *   does not pass it; its public building blocks do, order-expiry-hyperliquid.ts).
 * - Aster: `recvWindow` in the signed parameters (ccxt's v3 `sign` extends
 *   them with the call's params); the bound relied on is the documented
 *   10 s nonce window.
 * - Extended, Paradex, Lighter: none ccxt can set (Lighter's transaction
 *   expiry is its signer's default, 10 minutes): null, and a lost answer
 *   keeps the fallback bound.
 */
export class OrderRequestExpiry {
  /** Whether the venue refuses this client's requests past an expiry they carry. */
  readonly expires: boolean;

  constructor(
    private readonly venue: string,
    private readonly exchange: CcxtExchangeLike,
  ) {
    this.expires = venue === 'aster' || (venue === 'hyperliquid' && hasExpiryBlocks(exchange));
  }

  /** The longest an order request of this client lives on the venue, plus the settle margin. */
  get lifetimeBoundMs(): number | null {
    if (!this.expires) {
      return null;
    }
    return this.longestLifetimeMs(this.timeoutMs()) + EXPIRY_SETTLE_MARGIN_MS;
  }

  /** The stamp of a request sent now that lives `lifetimeMs` (default: the answer timeout). */
  stamp(lifetimeMs?: number): RequestStamp {
    const sentAtMs = Date.now();
    return { sentAtMs, expiresAtMs: sentAtMs + (lifetimeMs ?? this.timeoutMs()) };
  }

  /** When a request whose answer was lost has surely landed or never will; undefined: no bound. */
  settlesByMs(stamp: RequestStamp): number | undefined {
    if (!this.expires) {
      return undefined;
    }
    const lifetimeMs = this.longestLifetimeMs(stamp.expiresAtMs - stamp.sentAtMs);
    return stamp.sentAtMs + lifetimeMs + EXPIRY_SETTLE_MARGIN_MS;
  }

  /**
   * ccxt's createOrder, with the request's expiry where the venue takes one.
   * Its answer is waited for until the request can no longer take effect
   * (`settlesByMs`), not for ccxt's whole answer timeout: a hedge IOC that
   * lives 750 ms and whose answer is lost is then known lost in time to be
   * looked up and retried inside the hedge timeout. A late answer is
   * dropped; the look-up by client order id finds what the venue did.
   */
  createOrder(unified: string, args: CreateArgs, stamp: RequestStamp): Promise<Order> {
    const { side, amount, price, params } = args;
    const sent =
      this.venue === 'hyperliquid' && this.expires
        ? hyperliquidCreateOrder(this.exchange, unified, args, stamp.expiresAtMs)
        : this.exchange.createOrder(unified, 'limit', side, amount, price, {
            ...params,
            ...this.expiryParams(stamp),
          });
    return this.answeredBy(sent, stamp);
  }

  /** ccxt's cancelOrder, with the request's expiry where the venue takes one. */
  cancelOrder(orderId: string, unified: string | undefined, stamp: RequestStamp): Promise<unknown> {
    if (this.venue === 'hyperliquid' && this.expires && unified !== undefined) {
      return hyperliquidCancelOrder(this.exchange, orderId, unified, stamp.expiresAtMs);
    }
    return this.exchange.cancelOrder(orderId, unified, this.expiryParams(stamp));
  }

  /** The request's answer, or a lost answer once the request can no longer take effect. */
  private answeredBy<T>(answer: Promise<T>, stamp: RequestStamp): Promise<T> {
    const settlesByMs = this.settlesByMs(stamp);
    if (settlesByMs === undefined) {
      return answer;
    }
    let timer: NodeJS.Timeout | undefined;
    const lost = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new VenueNetworkError(
              this.venue,
              `no answer by the end of the request's life on the venue (${settlesByMs - stamp.sentAtMs} ms)`,
              undefined,
              settlesByMs,
            ),
          ),
        Math.max(0, settlesByMs - Date.now()),
      );
      timer.unref?.();
    });
    // The answer that comes too late is dropped here; nothing else waits for it.
    answer.catch(() => undefined);
    return Promise.race([answer, lost]).finally(() => clearTimeout(timer));
  }

  private expiryParams(stamp: RequestStamp): Record<string, unknown> {
    if (this.venue !== 'aster') {
      return {};
    }
    // Aster takes an order either way; a recvWindow only ever shortens its life.
    return { recvWindow: Math.max(1, Math.ceil(stamp.expiresAtMs - stamp.sentAtMs)) };
  }

  /** The longest a request meant to live `lifetimeMs` may live on the venue. */
  private longestLifetimeMs(lifetimeMs: number): number {
    return this.venue === 'aster' ? ASTER_NONCE_WINDOW_MS : lifetimeMs;
  }

  private timeoutMs(): number {
    return (this.exchange as { timeout?: number }).timeout ?? CCXT_DEFAULT_TIMEOUT_MS;
  }
}
