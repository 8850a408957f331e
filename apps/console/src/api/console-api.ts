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
  MaintenanceEntry,
  Market,
  Trade,
  TradeCanceled,
  TradeEvents,
  Wallet,
} from '@sts/sdk';
import { ApiError } from './api-error';

/** POST /auth/verify: the session the gateway recognised. */
export interface Session {
  user_id: string;
  wallet_address: string;
  new_account: boolean;
  expires_at: string;
  scopes: string[];
}

export interface WalletLinkChallenge {
  address: string;
  nonce: string;
  message: string;
  expires_at: string;
}

export interface AddCredentialRequest {
  wallet_addr: string;
  api_key: string;
  api_secret: string;
  passphrase?: string;
}

export interface BookTop {
  bid: string;
  ask: string;
}

/** GET /markets/{market}/spread: what a worker would see right now. */
export interface SpreadQuote {
  market: string;
  long_exchange: string;
  short_exchange: string;
  long: BookTop;
  short: BookTop;
  spread_type: string;
  spread: string;
  condition_met: boolean | null;
  at: string;
}

export interface SpreadQuery {
  long_exchange: string;
  short_exchange: string;
  maker_leg: string;
  spread_type: string;
  target_spread?: string;
  spread_condition?: string;
}

export interface Answer<T> {
  status: number;
  body: T;
}

/**
 * The REST API as the console uses it: same origin, the session JWT on every
 * call, answers typed from the SDK's OpenAPI types. Refusals throw ApiError.
 */
export class ConsoleApi {
  constructor(
    private readonly base: string,
    /** The session JWT sent as a bearer token; null before sign-in. */
    private token: string | null,
  ) {}

  /** A new (or renewed) session JWT for every later call; null signs out. */
  authorize(token: string | null): void {
    this.token = token;
  }

  async call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const token = this.token;
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw await ApiError.from(response);
    }
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  private async get<T>(path: string): Promise<T> {
    return (await this.call<T>('GET', path)).body;
  }

  verifySession = () => this.call<Session>('POST', '/auth/verify', {}).then((a) => a.body);

  trades = () => this.get<Trade[]>('/trades');
  trade = (tradeId: string) => this.get<Trade>(`/trades/${encodeURIComponent(tradeId)}`);
  tradeEvents = (tradeId: string, afterSequence: number) =>
    this.get<TradeEvents>(
      `/trades/${encodeURIComponent(tradeId)}/events?after_sequence=${afterSequence}`,
    );
  createTrade = (request: CreateTradeRequest, idempotencyKey: string) =>
    this.call<CreateTradeAccepted | CreateTradeReplayed>('POST', '/trades', request, {
      'x-idempotency-key': idempotencyKey,
    });
  amendTrade = (tradeId: string, amendment: AmendTradeRequest) =>
    this.call<AmendmentSent | AmendmentPersisted>(
      'PATCH',
      `/trades/${encodeURIComponent(tradeId)}`,
      amendment,
    );
  cancelTrade = (tradeId: string) =>
    this.call<TradeCanceled | CancelSent>('DELETE', `/trades/${encodeURIComponent(tradeId)}`);
  /** Every running trade of the caller, canceled as DELETE would: one outcome per trade. */
  cancelAllTrades = () =>
    this.call<CancelAllAnswer>('POST', '/trades/cancel-all').then((answer) => answer.body);

  /** The deployment's venues: paper or live, and whether trading on each is halted now. */
  exchanges = () => this.get<Exchange[]>('/exchanges');

  markets = (exchanges: readonly string[], minExchanges?: number) =>
    this.get<{ markets: Market[] }>(
      `/markets?exchanges=${exchanges.join(',')}${minExchanges ? `&min_exchanges=${minExchanges}` : ''}`,
    ).then((answer) => answer.markets);
  spread = (market: string, query: SpreadQuery) => {
    const params = new URLSearchParams(
      Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
    return this.get<SpreadQuote>(`/markets/${encodeURIComponent(market)}/spread?${params}`);
  };
  maintenance = () => this.get<MaintenanceEntry[]>('/maintenance');

  wallets = () => this.get<Wallet[]>('/wallets');
  linkChallenge = (address: string) =>
    this.call<WalletLinkChallenge>('POST', '/wallets/link/challenge', { address }).then(
      (answer) => answer.body,
    );
  linkWallet = (address: string, nonce: string, signature: string) =>
    this.call<Wallet>('POST', '/wallets/link', { address, nonce, signature });
  unlinkWallet = (address: string) =>
    this.call<unknown>('DELETE', `/wallets/${encodeURIComponent(address)}`);

  credentials = () => this.get<Credential[]>('/credentials');
  addCredential = (exchange: string, request: AddCredentialRequest) =>
    this.call<Credential>('POST', `/credentials/${encodeURIComponent(exchange)}`, request);
  removeCredential = (exchange: string, wallet: string) =>
    this.call<unknown>(
      'DELETE',
      `/credentials/${encodeURIComponent(exchange)}/${encodeURIComponent(wallet)}`,
    );
}

/** The five venues (interface.md: exchange ids), in the order the console lists them. */
export const VENUES = ['hyperliquid', 'paradex', 'lighter', 'extended', 'aster'] as const;
