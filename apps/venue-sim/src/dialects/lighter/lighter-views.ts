import Big from 'big.js';
import type { HttpReply } from '../../api/http-kit';
import type { MarketState } from '../../engine/market-state';
import { freeMargin } from '../../engine/order-validation';
import type { VenueEngine } from '../../engine/venue-engine';
import type { LighterAccount } from './lighter-accounts';
import { decimalsOf, marketIndexOf } from './lighter-markets';

/** Lighter's JSON views of the engine: a market's details, an account with its positions, the collateral asset. */

const USDC_ASSET_ID = 3;
/** Asset ids of the other assets an account holds (ccxt's recorded answer: ETH 1, USDC 3). */
const HELD_ASSET_IDS: Readonly<Record<string, number>> = { ETH: 1 };
const FIRST_UNLISTED_ASSET_ID = 100;

/** An answer of the venue: HTTP 200 with `code: 200` beside its fields. */
export const lighterOk = (body: Record<string, unknown>): HttpReply => ({
  status: 200,
  body: { code: 200, ...body },
});

/** The venue's only collateral asset, as `assetDetails` lists it. */
export const USDC_ASSET = {
  asset_id: USDC_ASSET_ID,
  symbol: 'USDC',
  l1_decimals: 6,
  decimals: 6,
  min_transfer_amount: '1',
  min_withdrawal_amount: '1',
  margin_mode: 'enabled',
  index_price: '1',
};

export function marketDetails(venue: VenueEngine, market: MarketState) {
  const { spec } = market;
  const mark = market.markPrice();
  return {
    symbol: spec.symbol,
    market_id: marketIndexOf(venue, spec.symbol),
    market_type: 'perp',
    status: 'active',
    taker_fee: new Big(venue.profile.takerFeeBps).div(10_000).toFixed(4),
    maker_fee: new Big(venue.profile.makerFeeBps).div(10_000).toFixed(4),
    liquidation_fee: '0.01',
    min_base_amount: spec.minSize,
    min_quote_amount: spec.minNotional ?? '0',
    order_quote_limit: '281474976.710655',
    supported_size_decimals: decimalsOf(spec.lotSize),
    supported_price_decimals: decimalsOf(spec.tickSize),
    supported_quote_decimals: 6,
    size_decimals: decimalsOf(spec.lotSize),
    price_decimals: decimalsOf(spec.tickSize),
    quote_multiplier: 1,
    default_initial_margin_fraction: Math.round(10_000 / spec.maxLeverage),
    min_initial_margin_fraction: Math.round(10_000 / spec.maxLeverage),
    maintenance_margin_fraction: Math.round(5_000 / spec.maxLeverage),
    closeout_margin_fraction: Math.round(3_000 / spec.maxLeverage),
    last_trade_price: mark.toFixed(),
    daily_trades_count: 0,
    daily_base_token_volume: 0,
    daily_quote_token_volume: spec.volume24hUsd,
    daily_price_low: mark.toNumber(),
    daily_price_high: mark.toNumber(),
    daily_price_change: 0,
    open_interest: new Big(spec.openInterestUsd).div(mark).round(4).toNumber(),
  };
}

/**
 * `GET /api/v1/account?by=index`: the account, its perp positions and its
 * assets. `collateral` and `available_balance` are the perps' USDC (what
 * ccxt's swap balance reads); `assets` are the account's spot assets, each in
 * its own units: its USDC and what else the wallet holds (`holdings`, e.g.
 * 3 ETH, as ccxt's recorded answer lists beside 1000 USDC).
 */
export function accountView(
  venue: VenueEngine,
  account: LighterAccount,
  holdings: ReadonlyMap<string, Big>,
) {
  const engine = venue.accounts.get(account.wallet);
  const marks = venue.marks();
  const collateral = engine
    ? engine.collateral.plus(engine.realizedPnl).minus(engine.feesPaid)
    : new Big(0);
  const positions = engine
    ? [...engine.positions].map(([symbol, position]) => {
        const mark = marks.get(symbol) ?? venue.market(symbol).markPrice();
        const size = position.size.abs();
        return {
          market_id: marketIndexOf(venue, symbol),
          symbol,
          initial_margin_fraction: (100 / venue.market(symbol).spec.maxLeverage).toFixed(2),
          open_order_count: 0,
          pending_order_count: 0,
          position_tied_order_count: 0,
          sign: position.size.gte(0) ? 1 : -1,
          position: size.toFixed(),
          avg_entry_price: position.entryPrice.round(8).toFixed(),
          position_value: size.times(mark).round(6).toFixed(),
          unrealized_pnl: engine.unrealizedPnl(symbol, mark).round(6).toFixed(),
          realized_pnl: '0',
          liquidation_price: '0',
          margin_mode: 0,
          allocated_margin: '0',
        };
      })
    : [];
  return {
    code: 0,
    account_type: 0,
    index: account.index,
    l1_address: account.wallet,
    status: 1,
    collateral: collateral.round(6).toFixed(),
    available_balance: freeMargin(venue, account.wallet).round(6).toFixed(),
    positions,
    assets: [
      ...[...holdings].map(([symbol, amount], i) => ({
        symbol,
        asset_id: HELD_ASSET_IDS[symbol] ?? FIRST_UNLISTED_ASSET_ID + i,
        balance: amount.toFixed(),
        locked_balance: '0',
      })),
      {
        symbol: 'USDC',
        asset_id: USDC_ASSET_ID,
        balance: collateral.round(6).toFixed(),
        locked_balance: '0',
      },
    ],
  };
}
