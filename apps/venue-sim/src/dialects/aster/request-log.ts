import { parseParams } from './aster-signing';

/** One request to a private path, as it reached the venue (before any check). */
export interface LoggedRequest {
  atMs: number;
  method: string;
  /** Path under the dialect, e.g. `/fapi/v3/order`. */
  path: string;
  /** The `user` it named, lower-cased ('' when it named none). */
  user: string;
  /** Every parameter it carried, `signature` left out. */
  params: Record<string, string>;
}

/** Requests kept per user; the oldest go first past this. */
const MAX_PER_USER = 5_000;

/**
 * Every private request the dialect received, per user, so a test can prove
 * what a client sent (no `builder` or `feeRate` on an order, no
 * `approveBuilder`). Read with `GET /dialects/aster/_sim/requests?user=`.
 */
export class RequestLog {
  private readonly byUser = new Map<string, LoggedRequest[]>();

  record(method: string, path: string, raw: string, atMs: number): void {
    let params: Record<string, string>;
    try {
      params = parseParams(raw);
    } catch {
      // A parameter sent twice: keep the last, the request is refused anyway.
      params = Object.fromEntries(new URLSearchParams(raw));
    }
    delete params['signature'];
    const user = (params['user'] ?? '').toLowerCase();
    const list = this.byUser.get(user) ?? [];
    list.push({ atMs, method, path, user, params });
    if (list.length > MAX_PER_USER) {
      list.shift();
    }
    this.byUser.set(user, list);
  }

  /** The user's requests, oldest first (every user's when `user` is undefined). */
  requests(user?: string): LoggedRequest[] {
    if (user !== undefined) {
      return [...(this.byUser.get(user.toLowerCase()) ?? [])];
    }
    return [...this.byUser.values()].flat().sort((a, b) => a.atMs - b.atMs);
  }
}
