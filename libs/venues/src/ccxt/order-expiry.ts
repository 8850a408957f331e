import type { Order } from 'ccxt';
import { VenueNetworkError } from '../errors';
import { EXPIRY_SETTLE_MARGIN_MS } from '../paper/paper-order-entry';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import type { CreateArgs } from './create-order-args';
import {
  HYPERLIQUID_BATCHES,
  hasExpiryBlocks,
  hyperliquidCancelOrder,
  hyperliquidCreateOrder,
} from './order-expiry-hyperliquid';
import {
  inRequests,
  type BatchCancel,
  type BatchExpiry,
  type BatchPlacement,
  type ElementAnswer,
  type VenueBatchRequests,
} from './order-batch';
import { ASTER_BATCHES } from './order-batch-aster';
import { PARADEX_BATCHES } from './order-batch-paradex';

/**
 * Aster's v3 nonce window: a request whose nonce (microseconds, ccxt signs
 * `milliseconds() * 1000` when it sends) lags the venue's clock by more than
 * 10 s is refused (V3(Recommended)/EN/aster-finance-futures-api-v3.md, "V3
 * Nonce Mechanism"). The one expiry of a v3 request the mainnet documents
 * name; `recvWindow` is listed on the testnet v3 document only, so it is sent
 * but not relied on.
 */
export const ASTER_NONCE_WINDOW_MS = 10_000;

/**
 * Paradex refuses an order once `now > signature_timestamp + recv_window`
 * (docs "Receive Window"; 5 minutes when none is sent), and ccxt signs the
 * timestamp in whole seconds (`seconds() * 1000`): a request signed now
 * carries a timestamp up to this much older, so its `recv_window` is the
 * lifetime wanted plus this, and so is the longest it may live.
 */
export const PARADEX_SIGNATURE_TRUNCATION_MS = 1_000;

/** How a venue lets this client's order requests expire. */
interface ExpiryRule {
  /** Whether cancels expire too (Paradex's cancel carries no signed timestamp). */
  cancels: boolean;
  /** The longest a request meant to live `lifetimeMs` may live on the venue. */
  longestMs(lifetimeMs: number): number;
  /** The parameters that set the expiry through ccxt's own call. */
  params(lifetimeMs: number): Record<string, unknown>;
}

const EXPIRY_RULES: Record<string, ExpiryRule> = {
  // Signed into the action by order-expiry-hyperliquid.ts, not as a parameter.
  hyperliquid: { cancels: true, longestMs: (lifetimeMs) => lifetimeMs, params: () => ({}) },
  aster: {
    cancels: true,
    longestMs: () => ASTER_NONCE_WINDOW_MS,
    // Aster takes an order either way; a recvWindow only ever shortens its life.
    params: (lifetimeMs) => ({ recvWindow: Math.max(1, Math.ceil(lifetimeMs)) }),
  },
  paradex: {
    cancels: false,
    longestMs: (lifetimeMs) => Math.ceil(lifetimeMs) + PARADEX_SIGNATURE_TRUNCATION_MS,
    // ccxt's createOrder extends the order body with the call's params.
    params: (lifetimeMs) => ({
      recv_window: Math.ceil(lifetimeMs) + PARADEX_SIGNATURE_TRUNCATION_MS,
    }),
  },
};

/** Venues whose batched order requests the client sends, each with its request's expiry. */
const VENUE_BATCHES: ReadonlyMap<string, VenueBatchRequests> = new Map([
  ['hyperliquid', HYPERLIQUID_BATCHES],
  ['aster', ASTER_BATCHES],
  ['paradex', PARADEX_BATCHES],
]);

/** The venues whose batched order requests the live client sends (`VenueClient.batch`). */
export const LIVE_BATCH_VENUES: ReadonlySet<string> = new Set(VENUE_BATCHES.keys());

/**
 * The longest a request of this client that is meant to live `lifetimeMs`
 * may live on `venue`, or undefined where its requests carry no expiry
 * (the conformance harness holds a lost request past it).
 */
export function longestRequestLifeMs(venue: string, lifetimeMs: number): number | undefined {
  return EXPIRY_RULES[venue]?.longestMs(lifetimeMs);
}

/** ccxt's answer timeout when the instance does not say (ccxt's own default). */
const CCXT_DEFAULT_TIMEOUT_MS = 10_000;

/**
 * How long an order request lives on a venue that lets it expire, unless
 * the caller gives it a life of its own (a hedge IOC: a share of the hedge
 * timeout) or the instance answers sooner: as the paper client's requests.
 * A takeover waits this (plus the venue's own slack) for a dead worker's
 * requests, so a live trade is taken over in seconds.
 */
export const LIVE_ORDER_REQUEST_LIFE_MS = 5_000;

/** One order request as sent: when, and until when the venue may still take it. */
export interface RequestStamp {
  op: 'place' | 'cancel';
  sentAtMs: number;
  /** The expiry the request carries to the venue (ms epoch), if the venue takes one. */
  expiresAtMs: number;
}

/**
 * The expiry of this client's order requests on the venue, per venue, as
 * the paper client does it with `expires_at_ms`: a request lives its
 * `lifetimeMs` (a hedge IOC: a fraction of the hedge timeout) or else
 * `LIVE_ORDER_REQUEST_LIFE_MS` (the answer timeout if shorter), and a lost
 * answer settles by its send time plus the longest it may live on the venue
 * plus the settle margin.
 *
 * - Hyperliquid: `expiresAfter` signed into the action (ccxt's createOrder
 *   does not pass it; its public building blocks do, order-expiry-hyperliquid.ts).
 * - Aster: `recvWindow` in the signed parameters (ccxt's v3 `sign` extends
 *   them with the call's params); the bound relied on is the documented
 *   10 s nonce window.
 * - Paradex: `recv_window` in the order body, counted from the signature's
 *   timestamp; placements only (a cancel signs nothing with a time).
 * - Extended, Lighter: none ccxt can set (Lighter's transaction expiry is
 *   its signer's default, 10 minutes): null, and a lost answer keeps the
 *   fallback bound.
 */
export class OrderRequestExpiry {
  /** How the venue refuses this client's requests past an expiry they carry; null: it does not. */
  private readonly rule: ExpiryRule | null;

  constructor(
    private readonly venue: string,
    private readonly exchange: CcxtExchangeLike,
  ) {
    const usable = venue !== 'hyperliquid' || hasExpiryBlocks(exchange);
    this.rule = (usable && EXPIRY_RULES[venue]) || null;
  }

  /** Whether the venue refuses this client's placements past an expiry they carry. */
  get expires(): boolean {
    return this.rule !== null;
  }

  /** The longest an order request of this client lives on the venue, plus the settle margin. */
  get lifetimeBoundMs(): number | null {
    if (!this.rule) {
      return null;
    }
    return this.rule.longestMs(this.defaultLifeMs()) + EXPIRY_SETTLE_MARGIN_MS;
  }

  /** The stamp of a request sent now that lives `lifetimeMs` (default: `defaultLifeMs`). */
  stamp(op: RequestStamp['op'], lifetimeMs?: number): RequestStamp {
    const sentAtMs = Date.now();
    return { op, sentAtMs, expiresAtMs: sentAtMs + (lifetimeMs ?? this.defaultLifeMs()) };
  }

  /** When a request whose answer was lost has surely landed or never will; undefined: no bound. */
  settlesByMs(stamp: RequestStamp): number | undefined {
    const rule = this.ruleFor(stamp);
    if (!rule) {
      return undefined;
    }
    const lifetimeMs = rule.longestMs(stamp.expiresAtMs - stamp.sentAtMs);
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

  /** The venue's batched order requests, where the client sends them with the request's expiry; else null. */
  get batches(): VenueBatchRequests | null {
    const batches = VENUE_BATCHES.get(this.venue);
    return batches && this.rule && batches.sends(this.exchange) ? batches : null;
  }

  /**
   * Limit orders in as few batched requests as the venue takes, each with
   * the request's expiry and each order answered on its own, every
   * request's answer awaited as `createOrder`'s: a lost answer fails its
   * request's orders, each then of unknown fate.
   */
  async createOrders(
    entries: readonly BatchPlacement[],
    stamp: RequestStamp,
  ): Promise<Array<ElementAnswer<Order>>> {
    const batches = this.batchesSent();
    const expiry = this.batchExpiry(stamp);
    return inRequests(entries, batches.placements, (group) =>
      this.answeredBy(batches.createOrders(this.exchange, group, expiry), stamp),
    );
  }

  /** Cancels by order id in as few batched requests as the venue takes, with the request's expiry. */
  async cancelOrders(
    entries: readonly BatchCancel[],
    stamp: RequestStamp,
  ): Promise<Array<ElementAnswer<true>>> {
    const batches = this.batchesSent();
    const expiry = this.batchExpiry(stamp);
    return inRequests(entries, batches.cancels, (group) =>
      batches.cancelOrders(this.exchange, group, expiry),
    );
  }

  private batchesSent(): VenueBatchRequests {
    const batches = this.batches;
    if (!batches) {
      throw new Error(`${this.venue}: this client sends no batched order requests`);
    }
    return batches;
  }

  /** What a batched request carries of the request's expiry. */
  private batchExpiry(stamp: RequestStamp): BatchExpiry {
    return {
      sentAtMs: stamp.sentAtMs,
      expiresAtMs: stamp.expiresAtMs,
      params: this.expiryParams(stamp),
      missing: () => this.unanswered(stamp),
    };
  }

  /** An order a batched answer left out: its fate unknown until the request can no longer act. */
  private unanswered(stamp: RequestStamp): VenueNetworkError {
    return new VenueNetworkError(
      this.venue,
      'the batched answer has no status for this order',
      undefined,
      this.settlesByMs(stamp),
    );
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
    return this.ruleFor(stamp)?.params(stamp.expiresAtMs - stamp.sentAtMs) ?? {};
  }

  /** The venue's rule where this request expires by it. */
  private ruleFor(stamp: RequestStamp): ExpiryRule | null {
    return this.rule && (stamp.op === 'place' || this.rule.cancels) ? this.rule : null;
  }

  /** A request's life when the caller gives none: the live default, or the answer timeout if shorter. */
  private defaultLifeMs(): number {
    return Math.min(this.timeoutMs(), LIVE_ORDER_REQUEST_LIFE_MS);
  }

  private timeoutMs(): number {
    return (this.exchange as { timeout?: number }).timeout ?? CCXT_DEFAULT_TIMEOUT_MS;
  }
}
