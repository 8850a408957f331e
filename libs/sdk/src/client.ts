import { StsEventStream } from './event-stream';
import { HttpTransport, type Answered, type Call, type HttpOptions } from './http-transport';
import { watchTrade, type TradeWatchUpdate, type WatchTradeOptions } from './trade-watch';
import type {
  AddCredentialRequest,
  AmendmentPersisted,
  AmendmentSent,
  AmendTradeRequest,
  Balances,
  CancelAllAnswer,
  CancelSent,
  CreateTradeAccepted,
  CreateTradeReplayed,
  CreateTradeRequest,
  CreateWebhookRequest,
  Credential,
  CredentialDeleted,
  Exchange,
  LinkWalletRequest,
  ListTradesQuery,
  MaintenanceEntry,
  Market,
  MarketSpread,
  Positions,
  QualityQuery,
  QualityReport,
  ResultsQuery,
  ResultsReport,
  Session,
  SpreadQuery,
  Trade,
  TradeCanceled,
  TradeEvents,
  TradeQuality,
  Wallet,
  WalletLinkChallenge,
  WalletUnlinked,
  Webhook,
  WebhookCreated,
  WebhookDeliveries,
  WebhookDeliveriesQuery,
  WebhookTestSent,
} from './types';
import type { WebSocketConstructor } from './web-socket';

export interface StsClientOptions extends HttpOptions {
  /** The notifier socket, e.g. `ws://localhost:3001/api/v1/ws`: `watchTrade` wakes on its events. */
  notifierUrl?: string;
  /** The WebSocket class for `watchTrade`'s stream; default the platform's (Node 20: pass `ws`'s). */
  WebSocket?: WebSocketConstructor;
}

export interface CreateTradeOptions {
  /** Sent as X-Idempotency-Key; a fresh UUID when omitted. Every retry reuses it. */
  idempotencyKey?: string;
}

const segment = encodeURIComponent;

/**
 * The REST API of the spread trading service, in Node 20+ and in browsers
 * (the platform's fetch, Web Crypto). Retries as HttpTransport says; a
 * create is retried only because it always carries an idempotency key, so a
 * retried create can never open a second trade.
 */
export class StsClient {
  private readonly http: HttpTransport;

  constructor(private readonly options: StsClientOptions) {
    this.http = new HttpTransport(options);
  }

  /** A new (or renewed) session JWT for every later call; undefined signs out. */
  authorize(token: string | undefined): void {
    this.http.token = token;
  }

  /**
   * Follows a trade to its end: the trade when it changes, each new
   * execution-log entry, and `end` (see TradeWatchUpdate). Wakes on the
   * notifier's events when `notifierUrl` and credentials are set, and reads
   * the API at least every `intervalMs` whatever the socket does.
   */
  watchTrade(
    tradeId: string,
    options: WatchTradeOptions = {},
  ): AsyncGenerator<TradeWatchUpdate, void, undefined> {
    const { notifierUrl, apiKey, WebSocket } = this.options;
    const token = this.http.token;
    const canStream = notifierUrl !== undefined && (apiKey ?? token) !== undefined;
    const openStream = () => new StsEventStream({ url: notifierUrl!, apiKey, token, WebSocket });
    return watchTrade(this, tradeId, options, canStream ? openStream : undefined);
  }

  async createTrade(
    terms: CreateTradeRequest,
    options: CreateTradeOptions = {},
  ): Promise<Answered<CreateTradeAccepted | CreateTradeReplayed>> {
    const idempotencyKey = options.idempotencyKey ?? globalThis.crypto.randomUUID();
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
    const params: string[] = [];
    if (query.status !== undefined) {
      // One parameter, the statuses comma-separated (style form, explode false): `status=active,paused`.
      params.push(`status=${[query.status].flat().map(segment).join(',')}`);
    }
    if (query.limit !== undefined) {
      params.push(`limit=${query.limit}`);
    }
    if (query.before !== undefined) {
      params.push(`before=${segment(query.before)}`);
    }
    const search = params.length > 0 ? `?${params.join('&')}` : '';
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

  async markets(exchanges: readonly string[], minExchanges?: number): Promise<Market[]> {
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

  /**
   * Per wallet, market and venue: the venue's own position (read at most once
   * per account every 2 s, `as_of`), what the service's fills imply, the net
   * across venues, and `unexplained` where they differ; an unreadable venue
   * answers its entries with `error`. Scope account:read.
   */
  async positions(): Promise<Positions> {
    return (await this.get<Positions>('/api/v1/positions')).body;
  }

  /**
   * Each venue account's margin-asset balance, unrealised PnL, equity,
   * available and used margin, in the asset (read at most once per account
   * every 2 s, `as_of`), and the equity and available margin in USD over
   * the accounts margined in a USD stablecoin (`in_totals`; 1:1); an
   * unreadable account answers with `error`. Scope account:read.
   */
  async balances(): Promise<Balances> {
    return (await this.get<Balances>('/api/v1/balances')).body;
  }

  /**
   * One trade's execution quality: per maker fill its markouts at 1, 10 and
   * 60 s (bps, positive when good for the trader; null: not sampled) and the
   * hedges it caused (slippage against the decision, positive when good); per
   * trade the realised spread against its target and the times to the first
   * fill and to the end. Scope account:read.
   */
  async tradeQuality(tradeId: string): Promise<TradeQuality> {
    return (await this.get<TradeQuality>(`/api/v1/trades/${encodeURIComponent(tradeId)}/quality`))
      .body;
  }

  /**
   * Markouts and hedge slippage of the caller's maker fills in [from, to)
   * (default: the last 7 days; at most 90), grouped by venue (default),
   * market or side: count, mean, p5, p50, p95 per horizon. Scope account:read.
   */
  async quality(query: QualityQuery = {}): Promise<QualityReport> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) {
        params.set(name, String(value));
      }
    }
    const search = params.toString() ? `?${params}` : '';
    return (await this.get<QualityReport>(`/api/v1/quality${search}`)).body;
  }

  /**
   * The caller's trading results from `from` to `to` (default: the 30 days to
   * now; at most 366), grouped by day (default), ISO week, market or venue:
   * trades, fills, volume, realised spread, fees, funding paid and received,
   * net, in USD decimal strings, and their totals. Scope account:read.
   */
  async results(query: ResultsQuery = {}): Promise<ResultsReport> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) {
        params.set(name, String(value));
      }
    }
    const search = params.toString() ? `?${params}` : '';
    return (await this.get<ResultsReport>(`/api/v1/results${search}`)).body;
  }

  /** The session of the caller's JWT (the gateway makes the account on a first sign-in). */
  async verifySession(): Promise<Session> {
    return (await this.post<Session>('/api/v1/auth/verify', {})).body;
  }

  /** The message a further wallet signs to be linked (EIP-191), and its nonce. */
  async linkChallenge(address: string): Promise<WalletLinkChallenge> {
    return (await this.post<WalletLinkChallenge>('/api/v1/wallets/link/challenge', { address }))
      .body;
  }

  async linkWallet(request: LinkWalletRequest): Promise<Answered<Wallet>> {
    return this.post('/api/v1/wallets/link', request);
  }

  async unlinkWallet(address: string): Promise<WalletUnlinked> {
    return (await this.remove<WalletUnlinked>(`/api/v1/wallets/${segment(address)}`)).body;
  }

  async addCredential(exchange: string, request: AddCredentialRequest): Promise<Credential> {
    return (await this.post<Credential>(`/api/v1/credentials/${segment(exchange)}`, request)).body;
  }

  async removeCredential(exchange: string, wallet: string): Promise<CredentialDeleted> {
    const path = `/api/v1/credentials/${segment(exchange)}/${segment(wallet)}`;
    return (await this.remove<CredentialDeleted>(path)).body;
  }

  /**
   * Registers a webhook endpoint for the caller's events of the types named
   * (Standard Webhooks, or a chat service's message with `format`). The answer
   * carries the signing `secret`, which no later read shows: keep it now.
   * Sent once, never retried (a lost answer could mean an endpoint whose
   * secret nobody saw: list them, delete it, register again). Scope
   * webhooks:write.
   */
  async createWebhook(request: CreateWebhookRequest): Promise<WebhookCreated> {
    return (await this.post<WebhookCreated>('/api/v1/webhooks', request)).body;
  }

  /** The caller's webhook endpoints, oldest first, each with its `status`. Scope webhooks:read. */
  async webhooks(): Promise<Webhook[]> {
    return (await this.get<{ webhooks: Webhook[] }>('/api/v1/webhooks')).body.webhooks;
  }

  /** One endpoint: `status`, `failing_since`, `disabled_at`, `disabled_reason`. Scope webhooks:read. */
  async webhook(webhookId: string): Promise<Webhook> {
    return (await this.get<Webhook>(`/api/v1/webhooks/${segment(webhookId)}`)).body;
  }

  /** Deletes an endpoint (204): nothing more is sent, its pending deliveries are canceled. */
  async deleteWebhook(webhookId: string): Promise<void> {
    await this.remove<undefined>(`/api/v1/webhooks/${segment(webhookId)}`);
  }

  /**
   * Owes the endpoint a `webhook.test` delivery, signed and retried like any
   * other; its `message_id` is on the deliveries at once. Each call owes one
   * more, so it is sent once, never retried. Scope webhooks:write.
   */
  async testWebhook(webhookId: string): Promise<WebhookTestSent> {
    const answered = await this.send<WebhookTestSent>({
      method: 'POST',
      path: `/api/v1/webhooks/${segment(webhookId)}/test`,
      idempotent: false,
    });
    return answered.body;
  }

  /**
   * A page of the endpoint's deliveries, newest first, each with its attempts
   * and when the next is due; `next_before`, when present, is the next page's
   * `before`. Scope webhooks:read.
   */
  async webhookDeliveries(
    webhookId: string,
    page: WebhookDeliveriesQuery = {},
  ): Promise<WebhookDeliveries> {
    const query = new URLSearchParams();
    if (page.limit !== undefined) {
      query.set('limit', String(page.limit));
    }
    if (page.before !== undefined) {
      query.set('before', page.before);
    }
    const suffix = query.toString() ? `?${query}` : '';
    const path = `/api/v1/webhooks/${segment(webhookId)}/deliveries${suffix}`;
    return (await this.get<WebhookDeliveries>(path)).body;
  }

  private get<T>(path: string): Promise<Answered<T>> {
    return this.send({ method: 'GET', path, idempotent: true });
  }

  /** A POST that is not safe to repeat: sent once, never retried. */
  private post<T>(path: string, body: unknown): Promise<Answered<T>> {
    return this.send({ method: 'POST', path, body, idempotent: false });
  }

  private remove<T>(path: string): Promise<Answered<T>> {
    return this.send({ method: 'DELETE', path, idempotent: true });
  }

  private send<T>(call: Call): Promise<Answered<T>> {
    return this.http.send<T>(call);
  }
}
