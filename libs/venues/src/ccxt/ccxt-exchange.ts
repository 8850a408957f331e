import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { asterSignerOptions } from './ccxt-credentials';
import { lighterAccountConfig, lighterFetchOrder } from './lighter';
import { paradexJwtRenewal } from './paradex-jwt';
import type { LiveCredentials } from './live-credentials';
import type { Egress, RequestKind } from '@sts/domain';
import { egressTransport } from './egress-transport';
import { payRequests, type SentVenueRequest } from './request-payment';
import { shareMarkets } from './shared-markets';

export interface CcxtExchangeOptions {
  /**
   * The venue registry's `endpoint`: where the venue's API lives when it is
   * not ccxt's default (a venue-sim dialect, `http://host:7100/dialects/<id>`,
   * or a venue's own staging host). Only ccxt's `urls.api` changes.
   */
  endpoint?: string;
  /** ccxt options the deployment sets for the venue (Lighter's signer paths). */
  options?: Record<string, unknown>;
  /** Budget tokens each kind of request costs (the registry's `requestCosts`); absent: 1 each. */
  requestCosts?: Readonly<Record<RequestKind, number>>;
  /**
   * The egress the account's requests leave from (`egressOf` of the
   * deployment's plan): with a `bind`, every REST request and WebSocket of
   * the instance is sent from that local address; without, the host's
   * default route.
   */
  egress?: Egress;
  /** Hears every HTTP request the instance sends, as it is paid for (the worker's request counts). */
  onRequest?: (request: SentVenueRequest) => void;
}

/**
 * ccxt's API URLs of a venue served at `endpoint` (HTTP base; its WebSocket is
 * the same base over ws(s) with the venue's own path), in ccxt's own `urls.api`
 * shape, deep-merged over the class's defaults.
 */
export function endpointUrls(venue: string, endpoint: string): Record<string, unknown> {
  const http = endpoint.replace(/\/+$/, '');
  const ws = http.replace(/^http/, 'ws');
  switch (venue) {
    case 'hyperliquid':
      return { public: http, private: http, ws: { public: `${ws}/ws` } };
    case 'aster':
      return {
        fapiPublic: `${http}/fapi`,
        fapiPrivate: `${http}/fapi`,
        sapiPublic: `${http}/api`,
        sapiPrivate: `${http}/api`,
        ws: {
          public: { spot: `${ws}/spot/stream`, swap: `${ws}/stream` },
          private: { spot: `${ws}/spot/ws`, swap: `${ws}/ws` },
        },
      };
    case 'paradex':
      return { v1: `${http}/v1`, v2: `${http}/v2`, ws: `${ws}/v1` };
    case 'extended':
      return { rest: http, ws: `${ws}/stream.extended.exchange/v1` };
    case 'lighter':
      return { root: http, public: http, private: http, ws: `${ws}/stream` };
    default:
      throw new Error(`no endpoint mapping for ccxt venue "${venue}"`);
  }
}

/**
 * What ccxt adds to a trader's orders by default, switched off: a trader
 * never pays a fee they did not choose, and no request names a builder or a
 * referrer. ccxt's Hyperliquid class approves its builder before the first
 * order even with `builderFee: false` (at 0 %, and then attaches it to every
 * order), so the approval step itself is replaced by one that approves
 * nothing; with `approvedBuilderFee` false no order carries a builder.
 * `refSet` skips its `setReferrer` action. Aster orders carry ccxt's
 * builder and fee rate only while `builderFee` is on, which also gates its
 * builder approval. Extended's carry ccxt's builder id and fee unless the
 * options lookup for them answers none.
 */
export function noIntegratorFees(venue: string): Record<string, unknown> {
  switch (venue) {
    case 'hyperliquid':
      return {
        options: { builderFee: false, approvedBuilderFee: false, refSet: true, feeInt: 0 },
        handleBuilderFeeApproval: async (): Promise<boolean> => true,
      };
    case 'aster':
      return { options: { builderFee: false, approvedBuilderFee: false } };
    case 'extended':
      // ccxt's Extended orders name ccxt's builder (builderId 257624) at 1 bp
      // and sign that fee into the settlement; an unset option falls back to
      // those defaults, so the two options are answered "none" outright.
      return {
        options: { builderFee: false },
        handleOptionAndParams(
          this: object,
          params: Record<string, unknown>,
          method: string,
          name: string,
          fallback?: unknown,
        ): [unknown, Record<string, unknown>] {
          if (name === 'builderFeeRate' || name === 'builderId') {
            const rest = { ...params };
            delete rest[name];
            return [undefined, rest];
          }
          const inherited = (Object.getPrototypeOf(this) as Record<string, unknown>)[
            'handleOptionAndParams'
          ] as (...args: unknown[]) => [unknown, Record<string, unknown>];
          return inherited.call(this, params, method, name, fallback);
        },
      };
    default:
      return { options: { builderFee: false } };
  }
}

/**
 * ccxt options the service needs per venue: Aster's open orders of every
 * market in one call (a reconciliation read; ccxt refuses it by default
 * because the venue weighs it 40 times a one-market read), Hyperliquid's
 * markets without the ones the service never trades.
 */
const VENUE_OPTIONS: Partial<Record<string, Record<string, unknown>>> = {
  aster: { fetchOpenOrders: { warnIfNoSymbol: false } },
  // The core perpetuals only: ccxt also loads spot pairs (spotMetaAndAssetCtxs)
  // and every builder-deployed dex (perpDexs, then one metaAndAssetCtxs per
  // dex), 20 weight of the egress's 1,200 a minute each, for markets the
  // service never trades.
  hyperliquid: { fetchMarkets: { types: ['swap'] } },
};

/**
 * A ccxt pro exchange for a live venue: the unmodified ccxt class, with
 * integrator fees off (`noIntegratorFees`), when the registry gives an
 * endpoint, its `urls.api` pointed there, and with an egress that binds an
 * address, its requests and sockets sent from it (`egressTransport`). ccxt is loaded on first use only,
 * so paper-only processes and tests never pay for it.
 */
export async function createCcxtExchange(
  venue: string,
  credentials: LiveCredentials,
  options: CcxtExchangeOptions = {},
): Promise<CcxtExchangeLike> {
  const ccxt = await import('ccxt');
  const lighter = venue === 'lighter' ? lighterAccountConfig(credentials) : undefined;
  const ExchangeClass = (
    ccxt.pro as unknown as Record<string, new (config: Record<string, unknown>) => CcxtExchangeLike>
  )[venue];
  if (!ExchangeClass) {
    throw new Error(`ccxt has no pro exchange "${venue}"`);
  }
  const fees = noIntegratorFees(venue);
  const exchange = new ExchangeClass({
    ...(lighter ? lighter.credentials : credentials),
    ...fees,
    ...(lighter ? { fetchOrder: lighterFetchOrder(ccxt.OrderNotFound) } : {}),
    // Paradex's JWT renewed within its own life, not only by ccxt's 3 minutes.
    ...(venue === 'paradex' ? paradexJwtRenewal() : {}),
    // The service spends each account's request limit through its own budgets
    // (apps/budget); ccxt's throttle would be a hidden queue between a maker
    // fill and its hedge (Aster's paces one instance at 3 requests a second).
    enableRateLimit: false,
    ...(MILLISECOND_NONCE.has(venue) ? { milliseconds: strictlyIncreasingMilliseconds() } : {}),
    options: {
      defaultType: 'swap',
      ...VENUE_OPTIONS[venue],
      ...lighter?.options,
      ...(venue === 'aster' ? asterSignerOptions(credentials) : {}),
      ...options.options,
      ...(fees['options'] as Record<string, unknown>),
    },
    ...(options.endpoint ? { urls: { api: endpointUrls(venue, options.endpoint) } } : {}),
    ...(options.egress?.bind ? egressTransport(options.egress.bind) : {}),
    delay: unrefDelay,
  });
  payRequests(exchange, venue, options.requestCosts, options.onRequest);
  shareMarkets(exchange, `${venue}|${options.endpoint ?? ''}`);
  // ccxt opens a plain ws:// socket (an endpoint without TLS: a dialect on
  // this machine) only with an HTTP agent loaded first (an egress's bound
  // agent, when it has one, is kept).
  if (options.endpoint?.startsWith('http://')) {
    await (
      exchange as CcxtExchangeLike & { loadHttpProxyAgent(): Promise<unknown> }
    ).loadHttpProxyAgent();
  }
  return exchange;
}

/**
 * Venues whose ccxt signing takes its nonce from the millisecond clock
 * (Aster v3: `milliseconds() * 1000`; Lighter: its "skip nonce" transactions
 * carry `milliseconds()`): two requests of one account signed in the same
 * millisecond would carry one nonce, and the venue refuses the second (Aster
 * -4225, Lighter 21104). Their instances get a clock that never repeats a value.
 */
const MILLISECOND_NONCE = new Set(['aster', 'lighter']);

/**
 * The wall clock in milliseconds, one more than the last value when the
 * clock has not moved on: a burst of k requests in one millisecond runs k
 * milliseconds ahead, then the clock catches up.
 */
export function strictlyIncreasingMilliseconds(now: () => number = Date.now): () => number {
  let last = 0;
  return () => {
    last = Math.max(now(), last + 1);
    return last;
  };
}

/**
 * ccxt's `delay` (its scheduled calls, e.g. Aster's hourly listen key
 * keep-alive) as ccxt does it, but with a timer that does not hold a
 * closing process open: `close()` does not clear it.
 */
function unrefDelay(
  this: { spawn(method: unknown, ...args: unknown[]): unknown },
  timeoutMs: number,
  method: unknown,
  ...args: unknown[]
): void {
  setTimeout(() => this.spawn(method, ...args), timeoutMs).unref();
}
