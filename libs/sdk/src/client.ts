import { randomUUID } from 'node:crypto';
import { StsApiError, StsNetworkError, type ErrorBody } from './errors';
import {
  backoffMs,
  DEFAULT_RETRY,
  RETRYABLE_STATUSES,
  retryAfterSeconds,
  sleep,
  type RetryPolicy,
} from './retry';
import type {
  AmendmentPersisted,
  AmendmentSent,
  AmendTradeRequest,
  CancelAllAnswer,
  CancelSent,
  CreateTradeAccepted,
  CreateTradeReplayed,
  CreateTradeRequest,
  Credential,
  Exchange,
  ListTradesQuery,
  MaintenanceEntry,
  Market,
  MarketSpread,
  SpreadQuery,
  Trade,
  TradeCanceled,
  TradeEvents,
  Wallet,
} from './types';

export interface StsClientOptions {
  /** The gateway, e.g. `http://localhost:3000` (paths are under /api/v1). */
  baseUrl: string;
  /** An API key (`X-API-Key`); public endpoints need none. */
  apiKey?: string;
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout. Default 10 s. */
  timeoutMs?: number;
  /** Replaces the global fetch (proxies, instrumentation, tests). */
  fetch?: typeof fetch;
}

export interface CreateTradeOptions {
  /** Sent as X-Idempotency-Key; a fresh UUID when omitted. Every retry reuses it. */
  idempotencyKey?: string;
}

/** An answer with the status it came with (create: 202 new, 200 replayed key). */
export interface Answered<T> {
  status: number;
  body: T;
}

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** A request that may be sent twice without doing twice what it does. */
  idempotent: boolean;
}

/**
 * The REST API of the spread trading service. Every call retries 429 and 503
 * answers (waiting what Retry-After says) and lost connections, up to
 * `retry.maxRetries`; a create is retried only because it always carries an
 * idempotency key, so a retried create can never open a second trade.
 */
export class StsClient {
  private readonly retry: RetryPolicy;
  private readonly fetch: typeof fetch;
  private readonly baseUrl: string;

  constructor(private readonly options: StsClientOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.fetch = options.fetch ?? fetch;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async createTrade(
    terms: CreateTradeRequest,
    options: CreateTradeOptions = {},
  ): Promise<Answered<CreateTradeAccepted | CreateTradeReplayed>> {
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    return this.send({
      method: 'POST',
      path: '/api/v1/trades',
      body: terms,
      headers: { 'x-idempotency-key': idempotencyKey },
      idempotent: true,
    });
  }

  /**
   * The caller's 50 newest trades; or, with a query, that page, newest first
   * (`before`: the last trade_id of the previous page).
   */
  async listTrades(query: ListTradesQuery = {}): Promise<Trade[]> {
    const params = new URLSearchParams();
    if (query.status !== undefined) {
      params.set('status', [query.status].flat().join(','));
    }
    if (query.limit !== undefined) {
      params.set('limit', String(query.limit));
    }
    if (query.before !== undefined) {
      params.set('before', query.before);
    }
    const search = params.size > 0 ? `?${params.toString()}` : '';
    return (await this.get<Trade[]>(`/api/v1/trades${search}`)).body;
  }

  async getTrade(tradeId: string): Promise<Trade> {
    return (await this.get<Trade>(`/api/v1/trades/${encodeURIComponent(tradeId)}`)).body;
  }

  async tradeEvents(
    tradeId: string,
    page: { afterSequence?: number; limit?: number } = {},
  ): Promise<TradeEvents> {
    const query = new URLSearchParams();
    if (page.afterSequence !== undefined) {
      query.set('after_sequence', String(page.afterSequence));
    }
    if (page.limit !== undefined) {
      query.set('limit', String(page.limit));
    }
    const suffix = query.toString() ? `?${query}` : '';
    return (
      await this.get<TradeEvents>(`/api/v1/trades/${encodeURIComponent(tradeId)}/events${suffix}`)
    ).body;
  }

  /** PATCH is a replace of the named fields: sending it twice stores the same terms. */
  async amendTrade(
    tradeId: string,
    changes: AmendTradeRequest,
  ): Promise<Answered<AmendmentSent | AmendmentPersisted>> {
    return this.send({
      method: 'PATCH',
      path: `/api/v1/trades/${encodeURIComponent(tradeId)}`,
      body: changes,
      idempotent: true,
    });
  }

  async cancelTrade(tradeId: string): Promise<Answered<TradeCanceled | CancelSent>> {
    return this.send({
      method: 'DELETE',
      path: `/api/v1/trades/${encodeURIComponent(tradeId)}`,
      idempotent: true,
    });
  }

  /**
   * Cancels every live trade of the caller as cancelTrade would, one answer
   * per trade (`http_status` is what DELETE answers for it). Safe to repeat:
   * a second call finds nothing live, or the trades still ending.
   */
  async cancelAllTrades(): Promise<CancelAllAnswer> {
    const answered = await this.send<CancelAllAnswer>({
      method: 'POST',
      path: '/api/v1/trades/cancel-all',
      idempotent: true,
    });
    return answered.body;
  }

  async markets(exchanges: string[], minExchanges?: number): Promise<Market[]> {
    const query = new URLSearchParams({ exchanges: exchanges.join(',') });
    if (minExchanges !== undefined) {
      query.set('min_exchanges', String(minExchanges));
    }
    return (await this.get<{ markets: Market[] }>(`/api/v1/markets?${query}`)).body.markets;
  }

  /** Both venues' touch and the spread a trade on these terms would see now (condition_met with a target). */
  async spread(market: string, query: SpreadQuery): Promise<MarketSpread> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) {
        params.set(name, String(value));
      }
    }
    const path = `/api/v1/markets/${encodeURIComponent(market)}/spread?${params}`;
    return (await this.get<MarketSpread>(path)).body;
  }

  /** The venues of the deployment: `paper` or `live`, maker caps, whether trading is halted there. */
  async exchanges(): Promise<Exchange[]> {
    return (await this.get<Exchange[]>('/api/v1/exchanges')).body;
  }

  async maintenance(): Promise<MaintenanceEntry[]> {
    return (await this.get<MaintenanceEntry[]>('/api/v1/maintenance')).body;
  }

  async wallets(): Promise<Wallet[]> {
    return (await this.get<Wallet[]>('/api/v1/wallets')).body;
  }

  async credentials(): Promise<Credential[]> {
    return (await this.get<Credential[]>('/api/v1/credentials')).body;
  }

  private get<T>(path: string): Promise<Answered<T>> {
    return this.send({ method: 'GET', path, idempotent: true });
  }

  private async send<T>(call: Call): Promise<Answered<T>> {
    for (let retry = 0; ; retry += 1) {
      const mayRetry = call.idempotent && retry < this.retry.maxRetries;
      let response: Response;
      try {
        response = await this.fetch(`${this.baseUrl}${call.path}`, {
          method: call.method,
          headers: {
            accept: 'application/json',
            ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(this.options.apiKey ? { 'x-api-key': this.options.apiKey } : {}),
            ...call.headers,
          },
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        });
      } catch (failure) {
        if (!mayRetry) {
          throw new StsNetworkError(`${call.method} ${call.path}: no answer`, failure);
        }
        await sleep(backoffMs(this.retry, retry));
        continue;
      }
      const text = await response.text();
      const body: unknown = text ? JSON.parse(text) : undefined;
      if (response.ok) {
        return { status: response.status, body: body as T };
      }
      const retryAfterS = retryAfterSeconds(response.headers.get('retry-after'));
      if (mayRetry && RETRYABLE_STATUSES.has(response.status)) {
        await sleep(backoffMs(this.retry, retry, retryAfterS));
        continue;
      }
      throw new StsApiError(response.status, body as ErrorBody, retryAfterS);
    }
  }
}
