import type {
  Balances,
  FundingHistory,
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
  /** The account's funding payments (not on every venue: Lighter has none in ccxt 4.5.84). */
  fetchFundingHistory?(
    symbol?: string,
    since?: number,
    limit?: number,
    params?: Record<string, unknown>,
  ): Promise<FundingHistory[]>;
  fetchBalance(params?: Record<string, unknown>): Promise<Balances>;
  watchOrderBook(
    symbol: string,
    limit?: number,
    params?: Record<string, unknown>,
  ): Promise<OrderBook>;
  /** ccxt pro's cached books by unified symbol (kept while subscribed). */
  readonly orderbooks?: Record<string, OrderBook | undefined>;
  unWatchOrderBook?(symbol: string, params?: Record<string, unknown>): Promise<unknown>;
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
