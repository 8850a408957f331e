import Big from 'big.js';
import { AnswerLost, type HttpReply, type RequestContext, type Router } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { MarketState } from '../../engine/market-state';
import { freeMargin, usedMargin } from '../../engine/order-validation';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import {
  ExtendedAccounts,
  ExtendedError,
  ExtendedUnauthorized,
  type ExtendedAccount,
} from './extended-accounts';
import {
  COLLATERAL_ID,
  COLLATERAL_RESOLUTION,
  EXTENDED,
  ExtendedOrders,
  SYNTHETIC_RESOLUTION,
  syntheticIdOf,
} from './extended-orders';
import { decimalsOf, hourlyFundingRate } from '../../api/wire-numbers';

const BASE = `/dialects/${EXTENDED}`;
const API = `${BASE}/api/v1`;

const ok = (data: unknown): HttpReply => ({ status: 200, body: { status: 'OK', data } });

/**
 * Extended's REST API (`/api/v1/...`) over the engine: markets and assets,
 * and for an `X-Api-Key` the account, balances, positions, orders
 * (extended-orders.ts) and trades. Private requests are admitted like any
 * request of the account (rate limit, latency, freeze, order faults).
 */
export class ExtendedRest {
  readonly accounts = new ExtendedAccounts();
  readonly orders: ExtendedOrders;

  constructor(private readonly deps: DialectDeps) {
    this.orders = new ExtendedOrders(deps);
  }

  addRoutes(router: Router): void {
    router.add('GET', `${API}/info/markets`, () =>
      ok([...this.venue().markets.values()].map((m) => marketInfo(m, this.basis(m)))),
    );
    router.add('GET', `${API}/info/assets`, () => ok([collateralAsset()]));
    router.add('POST', `${BASE}/_sim/api-keys`, (context) => {
      try {
        const body = JSON.parse(context.rawBody || '{}') as Record<string, unknown>;
        const account = this.accounts.issue(
          String(body['wallet'] ?? ''),
          String(body['stark_key'] ?? ''),
        );
        return {
          status: 201,
          body: {
            api_key: account.apiKey,
            account_id: account.accountId,
            l2_vault: String(account.vault),
          },
        };
      } catch (error) {
        if (error instanceof ExtendedError) {
          return error.reply();
        }
        return new ExtendedError(400, 1133, 'body must be JSON').reply();
      }
    });

    const read = (
      path: string,
      answer: (venue: VenueEngine, account: ExtendedAccount, context: RequestContext) => unknown,
    ) =>
      router.add('GET', `${API}/${path}`, (context) =>
        this.private(context, (request, account) =>
          this.deps.orders.execute(request, undefined, (venue) =>
            ok(answer(venue, account, context)),
          ),
        ),
      );
    read('user/account/info', (_venue, account) => ({
      accountId: account.accountId,
      description: 'Main account',
      accountIndex: 0,
      status: 'ACTIVE',
      l2Key: `0x${account.starkKey.toString(16)}`,
      l2Vault: String(account.vault),
      bridgeStarknetAddress: '0x0',
      apiKeys: [],
      accountIndexForKeyGeneration: 0,
    }));
    read('user/balance', (venue, account) => balance(venue, account.wallet));
    read('user/spot/balances', (venue, account) => {
      const total = walletBalance(venue, account.wallet).round(6).toFixed();
      return [
        {
          accountId: account.accountId,
          asset: 'USD',
          balance: total,
          indexPrice: '1',
          notionalValue: total,
          contributionFactor: '1',
          equityContribution: total,
          availableToWithdraw: freeMargin(venue, account.wallet).round(6).toFixed(),
          updatedAt: Math.floor(Date.now() / 1000),
        },
      ];
    });
    read('user/positions', (venue, account) => positions(venue, account));
    read('user/fees', (venue) =>
      [...venue.markets.keys()].map((market) => ({
        market,
        makerFeeRate: new Big(venue.profile.makerFeeBps).div(10_000).toFixed(),
        takerFeeRate: new Big(venue.profile.takerFeeBps).div(10_000).toFixed(),
      })),
    );
    read('user/orders', (venue, account, context) =>
      this.orders.open(venue, account, account.wallet, context.query.get('market')),
    );
    read('user/orders/external/:external_id', (venue, account, context) => [
      this.orders.lookup(venue, account, account.wallet, {
        externalId: context.params['external_id'],
      }),
    ]);
    read('user/orders/:order_id', (venue, account, context) =>
      this.orders.lookup(venue, account, account.wallet, { id: context.params['order_id'] }),
    );
    read('user/trades', (venue, account, context) =>
      this.orders.trades(venue, account, account.wallet, context.query),
    );

    router.add('POST', `${API}/user/order`, (context) =>
      this.private(context, (request, account) => {
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(context.rawBody) as Record<string, unknown>;
        } catch {
          throw new ExtendedError(400, 1133, 'Invalid order parameters.');
        }
        return this.orders.place(request, account, body);
      }),
    );
    router.add('DELETE', `${API}/user/order/:order_id`, (context) =>
      this.private(context, (request) =>
        this.orders.cancel(request, { id: context.params['order_id'] }),
      ),
    );
    router.add('DELETE', `${API}/user/order`, (context) =>
      this.private(context, (request) =>
        this.orders.cancel(request, { externalId: context.query.get('externalId') ?? '' }),
      ),
    );
  }

  private async private(
    context: RequestContext,
    act: (request: SignedRequest, account: ExtendedAccount) => Promise<HttpReply>,
  ): Promise<HttpReply> {
    try {
      const account = this.accounts.ofKey(context.headers['x-api-key']);
      if (!this.deps.funding.account(EXTENDED, account.wallet)) {
        throw new ExtendedError(400, 1004, 'Account not found.');
      }
      const request: SignedRequest = {
        venueId: EXTENDED,
        accountId: account.wallet,
        channel: { cut: context.cutConnection, mute: () => undefined },
      };
      return await act(request, account);
    } catch (error) {
      if (error instanceof AnswerLost) {
        throw error;
      }
      if (error instanceof ExtendedError || error instanceof ExtendedUnauthorized) {
        return error.reply();
      }
      if (error instanceof Error && (error as { code?: unknown }).code === 'rate_limited') {
        return { status: 429, body: {} };
      }
      throw error;
    }
  }

  private basis(market: MarketState): number {
    return this.deps.world().prices.basisBps(EXTENDED, market.spec.symbol);
  }

  private venue(): VenueEngine {
    return this.deps.world().venue(EXTENDED);
  }
}

function marketInfo(market: MarketState, basisBps: number) {
  const { spec } = market;
  const mark = market.markPrice();
  const bid = market.book.bids.best();
  const ask = market.book.asks.best();
  const px = (ticks: number | undefined) =>
    ticks === undefined ? mark.toFixed() : market.price.format(ticks);
  return {
    name: spec.symbol,
    uiName: spec.symbol,
    category: 'Crypto',
    assetName: spec.baseAsset,
    assetPrecision: decimalsOf(spec.lotSize),
    collateralAssetName: 'USD',
    collateralAssetPrecision: 6,
    active: true,
    status: 'ACTIVE',
    marketStats: {
      dailyVolume: String(spec.volume24hUsd),
      lastPrice: mark.toFixed(),
      askPrice: px(ask?.priceTicks),
      bidPrice: px(bid?.priceTicks),
      markPrice: mark.toFixed(),
      indexPrice: mark
        .div(1 + basisBps / 10_000)
        .round(8)
        .toFixed(),
      fundingRate: hourlyFundingRate(basisBps).round(8).toFixed(),
      nextFundingRate: (Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000,
      openInterest: String(spec.openInterestUsd),
    },
    tradingConfig: {
      minOrderSize: spec.minSize,
      minOrderSizeChange: spec.lotSize,
      minPriceChange: spec.tickSize,
      maxMarketOrderValue: '3000000',
      maxLimitOrderValue: '15000000',
      maxPositionValue: '60000000',
      maxLeverage: String(spec.maxLeverage),
      maxNumOrders: '200',
      limitPriceCap: '0.05',
      limitPriceFloor: '0.05',
    },
    l2Config: {
      type: 'STARKX',
      collateralId: COLLATERAL_ID,
      syntheticId: syntheticIdOf(spec.symbol),
      syntheticResolution: SYNTHETIC_RESOLUTION,
      collateralResolution: COLLATERAL_RESOLUTION,
    },
    visibleOnUi: true,
    createdAt: 0,
  };
}

const collateralAsset = () => ({
  id: 1,
  name: 'USD',
  symbol: 'USD',
  description: 'USD Collateral',
  precision: 6,
  isActive: true,
  isCollateral: true,
  starkexId: COLLATERAL_ID,
  starkexResolution: COLLATERAL_RESOLUTION,
  version: 3,
  createdAt: 0,
  type: 'SPOT',
  canBeUsedAsCollateral: true,
});

function walletBalance(venue: VenueEngine, wallet: string): Big {
  const account = venue.accounts.get(wallet);
  return account
    ? account.collateral.plus(account.realizedPnl).minus(account.feesPaid)
    : new Big(0);
}

function balance(venue: VenueEngine, wallet: string) {
  const account = venue.account(wallet);
  const equity = account.equity(venue.marks());
  return {
    collateralName: 'USD',
    balance: walletBalance(venue, wallet).round(6).toFixed(),
    equity: equity.round(6).toFixed(),
    availableForTrade: freeMargin(venue, wallet).round(6).toFixed(),
    availableForWithdrawal: freeMargin(venue, wallet).round(6).toFixed(),
    unrealisedPnl: equity.minus(walletBalance(venue, wallet)).round(6).toFixed(),
    initialMargin: usedMargin(venue, wallet).round(6).toFixed(),
    marginRatio: '0',
    updatedTime: Date.now(),
  };
}

function positions(venue: VenueEngine, account: ExtendedAccount) {
  const engine = venue.accounts.get(account.wallet);
  if (!engine) {
    return [];
  }
  const marks = venue.marks();
  return [...engine.positions].map(([symbol, position]) => {
    const mark = marks.get(symbol) ?? venue.market(symbol).markPrice();
    const size = position.size.abs();
    return {
      id: Number(
        `${account.accountId}${venue.profile.markets.findIndex((m) => m.symbol === symbol)}`,
      ),
      accountId: account.accountId,
      market: symbol,
      side: position.size.gt(0) ? 'LONG' : 'SHORT',
      leverage: String(venue.market(symbol).spec.maxLeverage),
      size: size.toFixed(),
      value: size.times(mark).round(6).toFixed(),
      openPrice: position.entryPrice.round(8).toFixed(),
      markPrice: mark.toFixed(),
      liquidationPrice: '0',
      margin: size.times(mark).div(venue.market(symbol).spec.maxLeverage).round(6).toFixed(),
      unrealisedPnl: engine.unrealizedPnl(symbol, mark).round(6).toFixed(),
      realisedPnl: '0',
      createdAt: 0,
      updatedAt: Date.now(),
    };
  });
}
