import type {
  Balances,
  FundingRate,
  MarketInterface,
  Order,
  OrderBook,
  Position,
  Ticker,
  Trade,
} from 'ccxt';
import {
  OrderRejectedError,
  PostOnlyWouldCrossError,
  RateLimitedError,
  UnknownOrderError,
  VenueAuthError,
  VenueNetworkError,
} from '../errors';
import { toVenueError } from './ccxt-errors';
import {
  isFinal,
  isTradablePerp,
  toBalances,
  toBook,
  toFill,
  toMarket,
  toOrder,
  toPosition,
} from './ccxt-mapping';
import { encodeClientOrderId } from './client-order-ids';
import asterFunding from './fixtures/aster-funding.json';
import asterMarkets from './fixtures/aster-markets.json';
import hyperliquidFunding from './fixtures/hyperliquid-funding.json';
import hyperliquidMarkets from './fixtures/hyperliquid-markets.json';
import hyperliquidTickers from './fixtures/hyperliquid-tickers.json';
import paradex from './fixtures/paradex-account.json';
import paradexMarkets from './fixtures/paradex-markets.json';

// Recorded ccxt unified structures (see fixtures/), mapped without any network.
const TICK_SIZE = 4;
const markets = (fixture: object) => Object.values(fixture) as unknown as MarketInterface[];
const funding = (fixture: object, symbol: string) =>
  (fixture as Record<string, FundingRate>)[symbol];
const ticker = (fixture: object, symbol: string) => (fixture as Record<string, Ticker>)[symbol];

describe('ccxt market mapping', () => {
  it('keeps linear perpetuals only', () => {
    expect(
      markets(hyperliquidMarkets)
        .filter(isTradablePerp)
        .map((m) => m.symbol),
    ).toEqual(['BTC/USDC:USDC', 'KPEPE/USDC:USDC']);
    expect(
      markets(asterMarkets)
        .filter(isTradablePerp)
        .map((m) => m.id),
    ).toEqual(['HYPEUSDT', 'HYPEUSD1', '1000PEPEUSDT']);
  });

  it("maps hyperliquid's kPEPE to 1000PEPE with every field the venue gives", () => {
    const kpepe = (hyperliquidMarkets as Record<string, unknown>)[
      'KPEPE/USDC:USDC'
    ] as unknown as MarketInterface;
    const mapped = toMarket(
      kpepe,
      {
        funding: funding(hyperliquidFunding, 'KPEPE/USDC:USDC'),
        ticker: ticker(hyperliquidTickers, 'KPEPE/USDC:USDC'),
      },
      TICK_SIZE,
    );
    expect(mapped).toEqual({
      canonical: '1000PEPE',
      contractMultiplier: '1',
      quote: 'USDC',
      marginAsset: 'USDC',
      entry: {
        symbol: 'kPEPE',
        tick_size: '0.000001',
        lot_size: '1',
        min_size: '1',
        min_notional: '10',
        max_leverage: 10,
        isolated_only: false,
        funding_interval_hours: 1,
        live_funding_rate: '-0.0000318',
        live_funding_annualised: '-0.278568',
        volume_24h_usd: '38123457',
        open_interest_usd: '26280000',
      },
    });
  });

  it('prices open interest from coins and mark, and omits what the venue does not give', () => {
    const btc = (hyperliquidMarkets as Record<string, unknown>)[
      'BTC/USDC:USDC'
    ] as unknown as MarketInterface;
    expect(toMarket(btc, {}, TICK_SIZE).entry).toEqual({
      symbol: 'BTC',
      tick_size: '1',
      lot_size: '0.00001',
      min_size: '0.00001',
      min_notional: '10',
      max_leverage: 40,
      isolated_only: false,
      open_interest_usd: '2089346645',
    });
  });

  it("maps aster's two HYPE contracts to one canonical symbol and its 1000PEPE as is", () => {
    const mapped = markets(asterMarkets)
      .filter(isTradablePerp)
      .map((market) =>
        toMarket(market, { funding: funding(asterFunding, market.symbol) }, TICK_SIZE),
      );
    expect(mapped.map((m) => [m.entry.symbol, m.canonical])).toEqual([
      ['HYPEUSDT', 'HYPE'],
      ['HYPEUSD1', 'HYPE'],
      ['1000PEPEUSDT', '1000PEPE'],
    ]);
    expect(mapped[2].entry).toEqual({
      symbol: '1000PEPEUSDT',
      tick_size: '0.0000001',
      lot_size: '1',
      min_size: '1',
      min_notional: '5',
      max_leverage: 50,
      funding_interval_hours: 4,
      live_funding_rate: '-0.00004213',
      live_funding_annualised: '-0.0922647',
    });
    expect(mapped[0].entry.isolated_only).toBe(false);
    expect(mapped[0].entry.live_funding_annualised).toBe('0.1095');
    // Each contract is margined in its own asset (ccxt's settle, Aster's marginAsset).
    expect(mapped.map((m) => m.marginAsset)).toEqual(['USDT', 'USD1', 'USDT']);
  });

  it("takes a market's margin asset from its settlement, not its quote (paradex: USD, USDC)", () => {
    const [eth] = markets(paradexMarkets);
    expect(toMarket(eth, {}, TICK_SIZE)).toMatchObject({
      canonical: 'ETH',
      quote: 'USD',
      marginAsset: 'USDC',
    });
  });

  it('reads precision given as decimal places', () => {
    const hype = (asterMarkets as Record<string, unknown>)[
      'HYPE/USDT:USDT'
    ] as unknown as MarketInterface;
    const places = { ...hype, precision: { amount: 2, price: 3 } };
    expect(toMarket(places, {}, 2).entry).toMatchObject({ tick_size: '0.001', lot_size: '0.01' });
  });
});

describe('ccxt order, fill, book and account mapping', () => {
  it('maps a partly filled post-only order', () => {
    expect(
      toOrder(
        paradex.restingOrder as unknown as Order,
        'paradex',
        'ETH-USD-PERP',
        'ETH',
        'trade-7f3a:maker:q12',
      ),
    ).toEqual({
      exchange: 'paradex',
      symbol: 'ETH-USD-PERP',
      market: 'ETH',
      orderId: '1732186512345000101',
      clientOrderId: 'trade-7f3a:maker:q12',
      side: 'buy',
      type: 'post_only',
      price: '3401.27',
      size: '0.5',
      filledSize: '0.2',
      averagePrice: '3401.27',
      status: 'partially_filled',
      createdAtMs: 1732186512345,
      updatedAtMs: 1732186520001,
    });
  });

  it('maps an IOC order whose remainder was canceled', () => {
    const order = toOrder(paradex.iocOrder as unknown as Order, 'paradex', 'ETH-USD-PERP', 'ETH');
    expect(order).toMatchObject({
      type: 'ioc',
      status: 'canceled',
      side: 'sell',
      filledSize: '0.25',
      averagePrice: '3399.1',
      clientOrderId: 'trade-7f3a:hedge:f1:a1',
    });
  });

  it.each([
    // Words the venues document that ccxt passes on raw: read by their verb.
    { word: 'scheduledCancel', final: true, status: 'canceled' },
    { word: 'EXPIRED_IN_MATCH', final: true, status: 'canceled' },
    { word: 'canceled-invalid-balance', final: true, status: 'canceled' },
    // Any other word is no fate: the order counts as open, read or streamed.
    { word: 'NEW_ADL', final: false, status: 'open' },
    { word: 'waitingForFill', final: false, status: 'open' },
    { word: 'open', final: false, status: 'open' },
    { word: 'canceled', final: true, status: 'canceled' },
  ])(
    'reads the status word $word as final: $final, and the order as $status',
    ({ word, final, status }) => {
      const raw = { ...(paradex.iocOrder as unknown as Order), status: word, filled: 0 };
      expect(isFinal(raw)).toBe(final);
      expect(toOrder(raw, 'paradex', 'ETH-USD-PERP', 'ETH').status).toBe(status);
    },
  );

  it('maps a fill', () => {
    const fill = toFill(paradex.trade as unknown as Trade, {
      exchange: 'paradex',
      symbol: 'ETH-USD-PERP',
      market: 'ETH',
      clientOrderId: 'trade-7f3a:maker:q12',
      fullyFilled: false,
    });
    expect(fill).toEqual({
      exchange: 'paradex',
      symbol: 'ETH-USD-PERP',
      market: 'ETH',
      side: 'buy',
      price: '3401.27',
      size: '0.2',
      orderId: '1732186512345000101',
      clientOrderId: 'trade-7f3a:maker:q12',
      fullyFilled: false,
      timestampMs: 1732186520001,
      fillId: '1732186520001000033',
      liquidity: 'maker',
      fee: '0',
    });
  });

  it('maps a book to decimal strings, best first, with the venue nonce as sequence', () => {
    const book = toBook(
      paradex.orderBook as unknown as OrderBook,
      'paradex',
      'ETH-USD-PERP',
      'ETH',
      2,
      1,
    );
    expect(book).toEqual({
      exchange: 'paradex',
      symbol: 'ETH-USD-PERP',
      market: 'ETH',
      seq: 8812345,
      bestBid: '3401.27',
      bestAsk: '3401.88',
      bids: [
        { price: '3401.27', size: '0.3' },
        { price: '3401.1', size: '4.21' },
      ],
      asks: [
        { price: '3401.88', size: '2.75' },
        { price: '3402.1', size: '6.1' },
      ],
      timestampMs: 1732186521000,
    });
  });

  it('maps open positions and skips flat ones', () => {
    const [open, flat] = paradex.positions as unknown as Position[];
    expect(toPosition(open, 'paradex', 'ETH-USD-PERP', 'ETH')).toEqual({
      exchange: 'paradex',
      symbol: 'ETH-USD-PERP',
      market: 'ETH',
      side: 'long',
      size: '0.2',
      entryPrice: '3401.27',
      markPrice: '3401.48',
      unrealizedPnl: '0.042',
      leverage: 50,
      marginMode: 'cross',
    });
    expect(toPosition(flat, 'paradex', 'BTC-USD-PERP', 'BTC')).toBeUndefined();
  });

  it('maps balances per asset', () => {
    expect(toBalances(paradex.balance as unknown as Balances)).toEqual([
      { asset: 'USDC', total: '10250.123456', available: '9570.1', marginUsed: '680.023456' },
    ]);
  });
});

/*
 * ccxt's exception classes by name and parent (node_modules/ccxt/js/src/base/errors.js).
 * ccxt itself cannot load under jest (its @noble dependencies are ESM only), and
 * the mapping reads class names, so a mirror of the hierarchy is a faithful stand-in.
 */
class BaseError extends Error {}
class ExchangeError extends BaseError {}
class AuthenticationError extends ExchangeError {}
class PermissionDenied extends AuthenticationError {}
class InsufficientFunds extends ExchangeError {}
class InvalidOrder extends ExchangeError {}
class OrderNotFound extends InvalidOrder {}
class OrderImmediatelyFillable extends InvalidOrder {}
class DuplicateOrderId extends InvalidOrder {}
class OperationFailed extends BaseError {}
class NetworkError extends OperationFailed {}
class DDoSProtection extends NetworkError {}
class RateLimitExceeded extends NetworkError {}
class ExchangeNotAvailable extends NetworkError {}
class RequestTimeout extends NetworkError {}
const ccxt = {
  OrderImmediatelyFillable,
  InvalidOrder,
  RateLimitExceeded,
  DDoSProtection,
  OrderNotFound,
  AuthenticationError,
  PermissionDenied,
  InsufficientFunds,
  RequestTimeout,
  ExchangeNotAvailable,
  DuplicateOrderId,
};

describe('ccxt error mapping', () => {
  it.each([
    [new ccxt.OrderImmediatelyFillable('would take'), PostOnlyWouldCrossError],
    [
      new ccxt.InvalidOrder(
        'Post only order would have immediately matched, bbo was 3401.27@3401.88',
      ),
      PostOnlyWouldCrossError,
    ],
    [new ccxt.RateLimitExceeded('429 Too Many Requests'), RateLimitedError],
    [new ccxt.DDoSProtection('slow down'), RateLimitedError],
    [new ccxt.OrderNotFound('order 12 not found'), UnknownOrderError],
    [new ccxt.AuthenticationError('bad signature'), VenueAuthError],
    [new ccxt.PermissionDenied('no trading permission'), VenueAuthError],
    [new ccxt.InsufficientFunds('margin'), OrderRejectedError],
    [new ccxt.RequestTimeout('timed out'), VenueNetworkError],
    [new ccxt.ExchangeNotAvailable('502'), VenueNetworkError],
  ])('maps %s', (error, expected) => {
    expect(toVenueError(error, 'paradex')).toBeInstanceOf(expected);
  });

  it('keeps a reason for rejections', () => {
    expect(toVenueError(new ccxt.InsufficientFunds('x'), 'aster')).toMatchObject({
      reason: 'insufficient_margin',
    });
    expect(toVenueError(new ccxt.DuplicateOrderId('x'), 'aster')).toMatchObject({
      reason: 'duplicate_client_order_id',
    });
  });
});

describe('client order id encoding', () => {
  it('fits each venue and is deterministic', () => {
    const id = 'trade-4f1c0c3e-9b0e-4c55-8f7e-2e3f0a8a1b22:hedge:f17:a2';
    expect(encodeClientOrderId('hyperliquid', id)).toMatch(/^0x[0-9a-f]{32}$/);
    expect(encodeClientOrderId('hyperliquid', id)).toBe(encodeClientOrderId('hyperliquid', id));
    expect(Number.isSafeInteger(encodeClientOrderId('lighter', id))).toBe(true);
    expect(String(encodeClientOrderId('aster', id))).toMatch(/^[A-Za-z0-9._:/-]{1,36}$/);
    expect(encodeClientOrderId('aster', 'short-id')).toBe('short-id');
    expect(encodeClientOrderId('paradex', id)).toBe(id);
  });
});
