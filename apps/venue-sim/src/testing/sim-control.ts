import type { WireFundingPayment, WireOrder } from '@sts/venues';
import type { LimitAdjustment, LimitsReport } from '../dialects/published-limits';
import type { SocketSourceCount } from '../dialects/socket-sources';

/**
 * The next `count` order requests matching `op`, `orderType` and `wallet`
 * lose their answer: `at: 'before'` the engine sees them, or `'after'` it
 * executed them; `then: 'drop'` cuts the connection they came on (socket
 * reconnects of that wallet refused for `blockMs`), `'hang'` holds them (or
 * their answer) `hangMs`.
 */
export interface LoseNextFault {
  count?: number;
  op?: 'place' | 'cancel' | 'replace' | 'any';
  orderType?: 'post_only' | 'ioc';
  wallet?: string;
  at: 'before' | 'after';
  then: 'drop' | 'hang';
  hangMs?: number;
  blockMs?: number;
}

/** `GET`/`POST /control/dialects/<venue>/timing`: each time in ms, null where the venue has none. */
export interface DialectTimingAnswer {
  queue_hold_ms: number | null;
  history_lag_ms: number | null;
}

/** `GET`/`POST /control/venues/<venue>/flow`: who the venue's takers are. */
export interface TakerFlowAnswer {
  /** The share of takers (0..1) that know the fair price's move over the horizon and trade ahead of it. */
  informed_taker_share: number;
  informed_horizon_ms: number;
}

/**
 * A typed client of the simulator's /control endpoint, for specs, benches
 * and e2e tests that drive a running simulator over HTTP.
 */
export class SimControl {
  constructor(
    private readonly baseUrl: string,
    private readonly token?: string,
  ) {}

  step(count = 1): Promise<unknown> {
    return this.post('/control/step', { count });
  }

  setTickMs(tickMs: number): Promise<unknown> {
    return this.post('/control/clock', { tick_ms: tickMs });
  }

  reset(seed?: number): Promise<unknown> {
    return this.post('/control/reset', seed === undefined ? {} : { seed });
  }

  trade(
    venue: string,
    symbol: string,
    side: 'buy' | 'sell',
    size: string,
    price?: string,
  ): Promise<{ filled: string }> {
    return this.post(`/control/venues/${venue}/trade`, {
      symbol,
      side,
      size,
      ...(price ? { price } : {}),
    });
  }

  /** An outside taker fills `size` of one resting order alone, leaving the rest of the book. */
  fillOrder(
    venue: string,
    symbol: string,
    orderId: string,
    size: string,
  ): Promise<{ filled: string }> {
    return this.post(`/control/venues/${venue}/fill-order`, { symbol, order_id: orderId, size });
  }

  jumpVenue(venue: string, bps: number, symbol?: string): Promise<unknown> {
    return this.post(`/control/venues/${venue}/jump`, { bps, ...(symbol ? { symbol } : {}) });
  }

  jumpAsset(asset: string, bps: number): Promise<unknown> {
    return this.post(`/control/assets/${asset}/jump`, { bps });
  }

  dropSockets(venue: string, blockMs = 0, wallet?: string): Promise<{ dropped: number }> {
    return this.post(`/control/venues/${venue}/drop-ws`, {
      block_ms: blockMs,
      ...(wallet ? { wallet } : {}),
    });
  }

  setLatency(venue: string, ms: number): Promise<unknown> {
    return this.post(`/control/venues/${venue}/latency`, { ms });
  }

  rejectNext(venue: string, count: number, reason?: string): Promise<unknown> {
    return this.post(`/control/venues/${venue}/reject-next`, {
      count,
      ...(reason ? { reason } : {}),
    });
  }

  delayNext(venue: string, count: number, ms: number): Promise<unknown> {
    return this.post(`/control/venues/${venue}/delay-next`, { count, ms });
  }

  /** Ends every lose-next hold now, each request reaching the venue as at `asOfMs`. */
  releaseHeld(venue: string, asOfMs: number): Promise<{ released: number }> {
    return this.post(`/control/venues/${venue}/release-held`, { as_of_ms: asOfMs });
  }

  loseNext(venue: string, fault: LoseNextFault): Promise<unknown> {
    return this.post(`/control/venues/${venue}/lose-next`, {
      ...(fault.count !== undefined ? { count: fault.count } : {}),
      ...(fault.op ? { op: fault.op } : {}),
      ...(fault.orderType ? { order_type: fault.orderType } : {}),
      ...(fault.wallet ? { wallet: fault.wallet } : {}),
      at: fault.at,
      then: fault.then,
      ...(fault.hangMs !== undefined ? { hang_ms: fault.hangMs } : {}),
      ...(fault.blockMs !== undefined ? { block_ms: fault.blockMs } : {}),
    });
  }

  freeze(venue: string, mode: 'hang' | 'halt' = 'hang'): Promise<unknown> {
    return this.post(`/control/venues/${venue}/freeze`, { mode });
  }

  thaw(venue: string): Promise<unknown> {
    return this.post(`/control/venues/${venue}/thaw`, {});
  }

  setRateLimit(venue: string, perSecond: number): Promise<unknown> {
    return this.post(`/control/venues/${venue}/rate-limit`, { per_s: perSecond });
  }

  /** Who the venue's takers are (`informed_taker_share`, `informed_horizon_ms`). */
  takerFlow(venue: string): Promise<TakerFlowAnswer> {
    return this.get(`/control/venues/${venue}/flow`);
  }

  /** Makes a share of the venue's takers informed, over a horizon (whole 100 ms steps). */
  setTakerFlow(venue: string, flow: Partial<TakerFlowAnswer>): Promise<TakerFlowAnswer> {
    return this.post(`/control/venues/${venue}/flow`, flow);
  }

  registerAccount(
    venue: string,
    account: { apiKey: string; apiSecret: string; wallet: string; collateral?: string },
  ): Promise<unknown> {
    return this.post(`/control/venues/${venue}/accounts`, {
      api_key: account.apiKey,
      api_secret: account.apiSecret,
      wallet: account.wallet,
      ...(account.collateral ? { collateral: account.collateral } : {}),
    });
  }

  /** Funds a wallet on a venue, in every protocol of it (a dialect serves funded wallets only). */
  deposit(
    venue: string,
    wallet: string,
    amount: string,
  ): Promise<{ account: string; collateral: string }> {
    return this.post(`/control/venues/${venue}/deposits`, { wallet, amount });
  }

  /**
   * Credits a wallet with an asset other than its margin (named as the
   * venue's balances name it): the dialects list it, nothing margins from it.
   */
  depositAsset(
    venue: string,
    wallet: string,
    asset: string,
    amount: string,
  ): Promise<{ account: string; asset: string; holding: string }> {
    return this.post(`/control/venues/${venue}/deposits`, { wallet, amount, asset });
  }

  requestCounts(
    venue: string,
    wallet: string,
  ): Promise<{
    limit_per_s: number;
    max_accepted_per_s: number;
    seconds: Array<{ second: number; accepted: number; rejected: number }>;
  }> {
    return this.get(`/control/venues/${venue}/request-counts?wallet=${encodeURIComponent(wallet)}`);
  }

  accountFills(
    venue: string,
    wallet: string,
    sinceMs = 0,
  ): Promise<{ fills: Array<Record<string, unknown>> }> {
    return this.get(
      `/control/venues/${venue}/accounts/${encodeURIComponent(wallet)}/fills?since=${sinceMs}`,
    );
  }

  /** The account's orders as the venue recorded them, oldest first (`open`: resting ones only). */
  accountOrders(
    venue: string,
    wallet: string,
    filter: { status?: 'open' } = {},
  ): Promise<{ orders: WireOrder[] }> {
    const query = filter.status ? `?status=${filter.status}` : '';
    return this.get(
      `/control/venues/${venue}/accounts/${encodeURIComponent(wallet)}/orders${query}`,
    );
  }

  /** Settles one market's funding now (at `rate`, else its current rate); the payments made. */
  settleFunding(
    venue: string,
    symbol: string,
    rate?: string,
  ): Promise<{ funding: WireFundingPayment[] }> {
    return this.post(`/control/venues/${venue}/funding`, {
      symbol,
      ...(rate === undefined ? {} : { rate }),
    });
  }

  setFundingRate(venue: string, symbol: string, rate: string): Promise<unknown> {
    return this.post(`/control/venues/${venue}/funding-rate`, { symbol, rate });
  }

  /** An account's funding payments, as the venue recorded them. */
  accountFunding(
    venue: string,
    wallet: string,
    since = 0,
  ): Promise<{ funding: WireFundingPayment[] }> {
    return this.get(
      `/control/venues/${venue}/accounts/${wallet.toLowerCase()}/funding?since=${since}`,
    );
  }

  state(): Promise<Record<string, unknown>> {
    return this.get('/control/state');
  }

  /** Switches readings of a dialect where its venue is silent (`dialect-profiles.ts`). */
  setDialectProfile(venue: string, profile: Readonly<Record<string, string>>): Promise<unknown> {
    return this.send(`/control/dialects/${venue}/profile`, {
      method: 'PUT',
      body: JSON.stringify(profile),
    });
  }

  /** The times a dialect's readings play with (`dialect-timings.ts`; null: none of its readings uses it). */
  dialectTiming(venue: string): Promise<DialectTimingAnswer> {
    return this.get(`/control/dialects/${venue}/timing`);
  }

  /** Sets some of a dialect's times (whole ms, 0 to 60,000). */
  setDialectTiming(
    venue: string,
    timing: { queue_hold_ms?: number; history_lag_ms?: number },
  ): Promise<DialectTimingAnswer> {
    return this.post(`/control/dialects/${venue}/timing`, timing);
  }

  /** A dialect's published pools with their counts (`GET /control/dialects/<venue>/rate-limits`). */
  dialectRateLimits(venue: string): Promise<LimitsReport> {
    return this.get(`/control/dialects/${venue}/rate-limits`);
  }

  /** Changes a dialect's published numbers for a test; `{}` restores the venue's own. */
  setDialectRateLimits(venue: string, adjustment: LimitAdjustment): Promise<LimitsReport> {
    const pools = Object.entries(adjustment.pools ?? {}).map(([id, pool]) => [
      id,
      {
        ...(pool.capacity !== undefined ? { capacity: pool.capacity } : {}),
        ...(pool.windowMs !== undefined ? { window_ms: pool.windowMs } : {}),
      },
    ]);
    return this.send(`/control/dialects/${venue}/rate-limits`, {
      method: 'PUT',
      body: JSON.stringify({
        ...(adjustment.scale !== undefined ? { scale: adjustment.scale } : {}),
        ...(adjustment.windowMs !== undefined ? { window_ms: adjustment.windowMs } : {}),
        ...(pools.length > 0 ? { pools: Object.fromEntries(pools) } : {}),
      }),
    });
  }

  /** The addresses a dialect's WebSocket connections came from (`ip:<address>`), with counts. */
  dialectSocketSources(venue: string): Promise<{ venue: string; sources: SocketSourceCount[] }> {
    return this.get(`/control/dialects/${venue}/socket-sources`);
  }

  /** Clears a dialect's counts (the numbers in force stay). */
  resetDialectRateLimits(venue: string): Promise<LimitsReport> {
    return this.post(`/control/dialects/${venue}/rate-limits/reset`, {});
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    return this.send<T>(path, { method: 'POST', body: JSON.stringify(body) });
  }

  private async get<T>(path: string): Promise<T> {
    return this.send<T>(path, { method: 'GET' });
  }

  private async send<T>(path: string, init: { method: string; body?: string }): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      ...init,
      headers: {
        'content-type': 'application/json',
        ...(this.token ? { 'x-control-token': this.token } : {}),
      },
    });
    const body = (await response.json()) as T;
    if (!response.ok) {
      throw new Error(`control ${path}: HTTP ${response.status} ${JSON.stringify(body)}`);
    }
    return body;
  }
}
