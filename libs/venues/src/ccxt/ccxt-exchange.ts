import type {
  Balances,
  FundingRate,
  Market,
  Order,
  OrderBook,
  Position,
  Ticker,
  Trade,
} from 'ccxt';

/**
 * The part of a ccxt (pro) exchange the live client uses. Real exchanges
 * satisfy it; tests give a fake that replays recorded payloads, so nothing
 * in a test ever reaches a venue.
 */
export interface CcxtExchangeLike {
  readonly id: string;
  readonly precisionMode?: number;
  readonly has: Record<string, boolean | 'emulated' | undefined>;
  loadMarkets(reload?: boolean): Promise<Record<string, Market>>;
  fetchFundingRates?(symbols?: string[]): Promise<Record<string, FundingRate>>;
  fetchTickers?(symbols?: string[]): Promise<Record<string, Ticker>>;
  createOrder(
    symbol: string,
    type: 'limit',
    side: 'buy' | 'sell',
    amount: number,
    price?: number,
    params?: Record<string, unknown>,
  ): Promise<Order>;
  cancelOrder(
    id: string,
    symbol?: string,
    params?: Record<string, unknown>,
  ): Promise<Order | Record<string, unknown>>;
  fetchOrder(id: string, symbol?: string, params?: Record<string, unknown>): Promise<Order>;
  fetchOpenOrders(
    symbol?: string,
    since?: number,
    limit?: number,
    params?: Record<string, unknown>,
  ): Promise<Order[]>;
  fetchMyTrades(
    symbol?: string,
    since?: number,
    limit?: number,
    params?: Record<string, unknown>,
  ): Promise<Trade[]>;
  fetchPositions(symbols?: string[], params?: Record<string, unknown>): Promise<Position[]>;
  fetchBalance(params?: Record<string, unknown>): Promise<Balances>;
  watchOrderBook(
    symbol: string,
    limit?: number,
    params?: Record<string, unknown>,
  ): Promise<OrderBook>;
  watchOrders(
    symbol?: string,
    since?: number,
    limit?: number,
    params?: Record<string, unknown>,
  ): Promise<Order[]>;
  watchMyTrades?(
    symbol?: string,
    since?: number,
    limit?: number,
    params?: Record<string, unknown>,
  ): Promise<Trade[]>;
  close(): Promise<void>;
}

/**
 * Live credentials as stored by the operator. Which fields a venue needs
 * differs (hyperliquid and paradex: wallet + private key; extended: api key +
 * private key; aster, lighter: private key), so all are optional here and
 * ccxt checks its own requirements.
 */
export interface LiveCredentials {
  apiKey?: string;
  secret?: string;
  walletAddress?: string;
  privateKey?: string;
  password?: string;
}

/**
 * A ccxt pro exchange for a live venue. ccxt is loaded on first use only, so
 * paper-only processes and tests never pay for it.
 */
export async function createCcxtExchange(
  venue: string,
  credentials: LiveCredentials,
): Promise<CcxtExchangeLike> {
  const ccxt = await import('ccxt');
  const ExchangeClass = (
    ccxt.pro as unknown as Record<string, new (config: Record<string, unknown>) => CcxtExchangeLike>
  )[venue];
  if (!ExchangeClass) throw new Error(`ccxt has no pro exchange "${venue}"`);
  return new ExchangeClass({
    ...credentials,
    enableRateLimit: true,
    options: { defaultType: 'swap' },
  });
}
