import type { HttpReply } from '../../api/http-kit';
import type { Door } from '../limited-routes';
import type {
  LimitedRequest,
  PoolInForce,
  PublishedLimits,
  PublishedTable,
} from '../published-limits';
import { asterInterval, overLimitError } from './aster-errors';
import { rawParams } from './aster-signing';

/**
 * Aster's published limits (docs/venues/rate-limits.md §2, from asterdex/api-docs
 * `V3(Recommended)/EN/aster-finance-futures-api-v3.md`, "AST L…" below):
 *
 * - A1: 2400 REQUEST_WEIGHT a minute per IP over every REST request, each
 *   weighing what its endpoint's page says (L198-216, L510-518);
 * - A2: 1200 ORDERS a minute per account, new orders only (L220-224, L521-529),
 *   counted once the venue knows the account (`NEW_ORDER`); a batch's orders
 *   by the reading `batch_order_count` (`batchOfNewOrders`).
 *
 * The weights are the doc's table ("Weights of our requests") and the API
 * wallet registration's own page (50); the endpoints the dialect serves that
 * neither lists (ping, time, leverageBracket, builder) weigh 1, assumed as
 * the Binance-style default. Not modelled: the 418 ban after continued 429s
 * (L154, L212), the WebSocket limits (A3, A4) and the open-order filters (A5).
 */
/** A new order as A2 counts it (A1 weighs its request, `POST order`, at the door). */
export const NEW_ORDER: LimitedRequest = { kind: 'new order' };

/**
 * The orders of a `POST batchOrders` as A2 counts them under
 * `batch_order_count=per_order`: one each (`per_request` admits NEW_ORDER once).
 */
export const batchOfNewOrders = (count: number): LimitedRequest => ({
  kind: 'new orders of a batch',
  batch: count,
});

export const ASTER_RATE_LIMITS: PublishedTable = {
  venue: 'aster',
  pools: [
    {
      id: 'A1',
      scope: 'ip',
      windowMs: 60_000,
      capacity: 2400,
      weights: {
        'POST order': 1, // L2450-2456
        'DELETE order': 1, // L2843-2849
        'POST batchOrders': 5, // "Place Multiple Orders", Weight: 5 (L2686-2690)
        'DELETE batchOrders': 1, // "Cancel Multiple Orders", Weight: 1 (L2919-2923)
        'POST countdownCancelAll': 10, // L2947-2951
        'GET order': 1, // L2788-2794
        'GET openOrder': 1, // L2998-3000
        'GET openOrders': 1, // L3047-3053, with a symbol
        'GET openOrders (all)': 40, // L3047-3053, without
        'GET userTrades': 5, // L3465-3471
        'GET positionRisk': 5, // L3424-3430
        'GET balance': 5, // L3143-3147
        'GET income': 30, // L3515-3519 ("Get Income History")
        'GET account': 5, // accountWithJoinMargin's 5 (L3231-3237), assumed for v3/v4 account
        'GET depth (limit ≤ 50)': 2, // L1003-1016
        'GET depth (limit 100)': 5,
        'GET depth (limit 500)': 10,
        'GET depth (limit 1000)': 20,
        'GET premiumIndex': 1, // L1315-1321
        'GET fundingInfo': 1, // L1392-1398
        'GET exchangeInfo': 1, // L969-975
        'GET ticker/24hr': 1, // L1458-1465, with a symbol
        'GET ticker/24hr (all)': 40,
        'POST listenKey': 1, // L4744-4788
        'PUT listenKey': 1,
        'DELETE listenKey': 1,
        'GET ping': 1, // assumed
        'GET time': 1, // assumed
        'GET leverageBracket': 1, // assumed
        'GET builder': 1, // assumed
        'POST registerAndApproveAgent': 50, // "Register and Approve Agent (PUBLIC)", Weight: 50 (L4526)
      },
    },
    {
      id: 'A2',
      scope: 'account',
      windowMs: 60_000,
      capacity: 1200,
      weights: {
        [NEW_ORDER.kind]: 1,
        'new orders of a batch': { of: (count) => count, text: 'one per order of the batch' },
      },
    },
  ],
};

const DEPTH_KINDS: Readonly<Record<string, string>> = {
  '100': 'GET depth (limit 100)',
  '500': 'GET depth (limit 500)',
  '1000': 'GET depth (limit 1000)',
};

/**
 * A futures REST request (`/fapi/v<n>/<endpoint>`) as the pools weigh it;
 * `param` reads its parameters. The spot API's exchangeInfo (`/api/v3`,
 * another API with its own limits) is no kind the pools count.
 */
export function asterRequest(
  method: string,
  path: string,
  param: (name: string) => string | null | undefined,
): LimitedRequest {
  const endpoint = /^\/fapi\/v\d\/(.+)$/.exec(path)?.[1] ?? path;
  const kind = `${method} ${endpoint}`;
  switch (kind) {
    case 'GET depth':
      // The venue's default depth is 500.
      return { kind: DEPTH_KINDS[param('limit') ?? '500'] ?? 'GET depth (limit ≤ 50)' };
    case 'GET openOrders':
    case 'GET ticker/24hr':
      return { kind: param('symbol') ? kind : `${kind} (all)` };
    default:
      return { kind };
  }
}

/** A header of a pool's count over its window, named as Aster names them (`X-MBX-USED-WEIGHT-1m`). */
export function countHeader(name: string, windowMs: number): string {
  const { num, unit } = asterInterval(windowMs);
  return `${name}-${num}${unit === 'MINUTE' ? 'm' : 's'}`;
}

/**
 * `X-MBX-ORDER-COUNT-1m`, the account's A2 count, on an order answer
 * ("Every order response will contain a X-MBX-ORDER-COUNT-…", L220-224).
 */
export function withOrderCount(
  reply: HttpReply,
  limits: PublishedLimits,
  source: string,
  accountId: string,
): HttpReply {
  const { windowMs } = limits.pool('A2');
  const count = String(limits.windowWeight('A2', source, accountId));
  return {
    ...reply,
    headers: { ...reply.headers, [countHeader('X-MBX-ORDER-COUNT', windowMs)]: count },
  };
}

/**
 * Aster's door: A1 weighs every `/fapi` request as it comes in; over it the
 * venue answers 429 `-1003`; every answer carries its sender's IP's used weight,
 * `X-MBX-USED-WEIGHT-1m` (L209). The 418 ban for sending on after a 429
 * (L154, L212) is not modelled.
 */
export function asterDoor(limits: PublishedLimits, base: string): Door {
  return {
    limits,
    requestOf: (context) => {
      const params = new URLSearchParams(rawParams(context));
      const path = context.pathWithQuery.split('?')[0].slice(base.length);
      return asterRequest(context.method, path, (name) => params.get(name));
    },
    overLimit: (refusal) => overLimitError(refusal).reply(),
    decorate: (reply, context): HttpReply => {
      const { windowMs } = limits.pool('A1');
      const used = String(limits.windowWeight('A1', context.sourceAddress));
      return {
        ...reply,
        headers: { ...reply.headers, [countHeader('X-MBX-USED-WEIGHT', windowMs)]: used },
      };
    },
  };
}

/** The limits in force as exchangeInfo lists them (`rateLimits`, AST L854-866). */
export function rateLimitsInfo(limits: PublishedLimits): unknown[] {
  const entry = (rateLimitType: string, { windowMs, capacity }: PoolInForce) => {
    const { num, unit } = asterInterval(windowMs);
    return { rateLimitType, interval: unit, intervalNum: num, limit: capacity };
  };
  return [entry('REQUEST_WEIGHT', limits.pool('A1')), entry('ORDERS', limits.pool('A2'))];
}
