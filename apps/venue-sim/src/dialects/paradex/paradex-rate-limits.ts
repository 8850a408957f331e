import type { HttpReply } from '../../api/http-kit';
import type {
  LimitedRequest,
  OverPublishedLimit,
  PoolSpec,
  PublishedTable,
} from '../published-limits';

/**
 * The kinds of Paradex request the pools count (Paradex weighs none: each is
 * one unit). At the door, before the venue knows the account: `public`,
 * `onboarding`, `auth`, `private` (every private request, P6); once the bearer
 * token names the account: `order` (P4) or `private GET` (P5).
 */
export type ParadexKind = 'public' | 'onboarding' | 'auth' | 'private' | 'order' | 'private GET';

const pool = (
  id: string,
  scope: PoolSpec['scope'],
  windowMs: number,
  capacity: number,
  kinds: readonly ParadexKind[],
): PoolSpec => ({
  id,
  scope,
  windowMs,
  capacity,
  weights: Object.fromEntries(kinds.map((kind) => [kind, 1])),
});

/**
 * Paradex's published limits (docs/venues/rate-limits.md §3, the newest
 * version of docs.paradex.trade `api/general-information/rate-limits`):
 * P1 public endpoints 1500 a minute per IP; P2 `POST /onboarding` and P3
 * `POST /auth` 600 a minute per IP each; P4 `POST, DELETE, PUT /orders` 800 a
 * second and 17,250 a minute per account (the doc assumes the DELETE
 * sub-paths by id and client id are in it); P5 every private `GET` 120 a
 * second and 600 a minute per account; P6 1500 a minute per IP over every
 * private request of every account. A row with a second and a minute figure
 * is two pools (`/1s`, `/1m`), both enforced.
 *
 * The venue refills a token bucket (PDX-CQ); the sliding window here is
 * stricter. Not modelled: open orders per market (P7), WebSocket connections
 * (P8), the Retail-order limits (P9: our client never asks for an
 * interactive token).
 */
export const PARADEX_RATE_LIMITS: PublishedTable = {
  venue: 'paradex',
  pools: [
    pool('P1', 'ip', 60_000, 1500, ['public']),
    pool('P2', 'ip', 60_000, 600, ['onboarding']),
    pool('P3', 'ip', 60_000, 600, ['auth']),
    pool('P4/1s', 'account', 1_000, 800, ['order']),
    pool('P4/1m', 'account', 60_000, 17_250, ['order']),
    pool('P5/1s', 'account', 1_000, 120, ['private GET']),
    pool('P5/1m', 'account', 60_000, 600, ['private GET']),
    pool('P6', 'ip', 60_000, 1500, ['private']),
  ],
};

const PUBLIC_PATH = /\/v1\/(system|markets|orderbook|bbo)(\/|$)/;

/** A request as Paradex's per-IP pools see it at the door (P1, P2, P3, P6). */
export function paradexDoorRequest(method: string, path: string): LimitedRequest {
  if (method === 'POST' && path.endsWith('/v1/onboarding')) {
    return { kind: 'onboarding' };
  }
  if (method === 'POST' && path.endsWith('/v1/auth')) {
    return { kind: 'auth' };
  }
  return { kind: PUBLIC_PATH.test(path) ? 'public' : 'private' };
}

/**
 * Paradex's answer over a limit: 429 with the `x-ratelimit-*` headers its
 * official SDK reads (paradex-py `api/http_client.py`: `limit`, `remaining`,
 * `reset` in Unix seconds, `window` in seconds, "1 = per-second limit"). The
 * body is the dialect's (the docs publish none; ccxt maps the status).
 */
export function paradexOverLimit(refusal: OverPublishedLimit, nowMs = Date.now()): HttpReply {
  const { pool, retryAfterMs } = refusal;
  return {
    status: 429,
    body: { message: 'rate limit exceeded' },
    headers: {
      'x-ratelimit-limit': String(pool.capacity),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil((nowMs + retryAfterMs) / 1000)),
      'x-ratelimit-window': String(Math.max(1, Math.round(pool.windowMs / 1000))),
    },
  };
}
