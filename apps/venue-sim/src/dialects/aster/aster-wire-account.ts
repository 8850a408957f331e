import Big from 'big.js';
import type { MarketState } from '../../engine/market-state';
import { freeMargin, usedMargin } from '../../engine/order-validation';
import type { VenueEngine } from '../../engine/venue-engine';
import { marginAssets } from './aster-wire-markets';

/** An account as Aster's signed endpoints answer it: positions, balances, account info. */

/** One symbol's position as `GET /fapi/v3/positionRisk` gives it (cross margin, one-way). */
export function positionRisk(venue: VenueEngine, accountId: string, market: MarketState) {
  const account = venue.account(accountId);
  const position = account.positions.get(market.spec.symbol);
  const mark = market.markPrice();
  const size = position?.size ?? new Big(0);
  return {
    symbol: market.spec.symbol,
    positionAmt: size.toFixed(),
    entryPrice: (position?.entryPrice ?? new Big(0)).round(8).toFixed(),
    markPrice: mark.toFixed(),
    unRealizedProfit: account.unrealizedPnl(market.spec.symbol, mark).round(8).toFixed(),
    liquidationPrice: '0',
    leverage: String(market.spec.maxLeverage),
    maxNotionalValue: '1000000000',
    marginType: 'cross',
    isolatedMargin: '0.00000000',
    isAutoAddMargin: 'false',
    positionSide: 'BOTH',
    notional: size.times(mark).round(8).toFixed(),
    isolatedWallet: '0',
    updateTime: 0,
  };
}

/** Collateral plus realised PnL less fees: Aster's wallet balance (no unrealised PnL). */
export function walletBalance(venue: VenueEngine, accountId: string): Big {
  const account = venue.account(accountId);
  return account.collateral.plus(account.realizedPnl).minus(account.feesPaid);
}

export function unrealizedTotal(venue: VenueEngine, accountId: string): Big {
  const account = venue.account(accountId);
  const marks = venue.marks();
  let total = new Big(0);
  for (const symbol of account.positions.keys()) {
    const mark = marks.get(symbol);
    if (mark) {
      total = total.plus(account.unrealizedPnl(symbol, mark));
    }
  }
  return total;
}

/**
 * The futures assets a recorded `GET /fapi/v3/balance` answer lists, in its
 * order (ccxt's static test response `aster.json`, fetchBalance "swap"): 32
 * assets, every one listed whatever the account holds; APX alone cannot
 * margin (`marginAvailable: false`).
 */
// prettier-ignore
export const RECORDED_ASSETS: readonly string[] = [
  'CDL', 'FBTC', 'BONUSUSD', 'USDCE', 'FORM', 'USDBC', 'STONE', 'ASTER',
  'SOL', 'BNB', 'ETH', 'CUSDT', 'SLISBNB', 'VUSDT', 'BUSD', 'APX',
  'CAKE', 'WBETH', 'BTC', 'TWT', 'SOLVBTC', 'LISUSD', 'LISTA', 'RSETH',
  'JLP', 'USDF', 'USDT', 'AFEE', 'PUMPBTC', 'USD1', 'USDC', 'ASBNB',
];
const NOT_MARGIN = new Set(['APX']);

/**
 * `GET /fapi/v3/balance`: every asset of the recorded answer (and any other
 * the wallet holds), each in its own units. The engine keeps one collateral
 * per account; it is the venue's first margin asset (USDT) and margins
 * every market, USD1 ones included (as Aster's Multi-Assets mode would).
 * The other assets hold what the wallet holds of them (`holdings`: the
 * venue's BNB and ASTER, zero elsewhere, as recorded), available in full;
 * the engine margins from none of them.
 */
export function balances(
  venue: VenueEngine,
  accountId: string,
  nowMs: number,
  holdings: ReadonlyMap<string, Big>,
) {
  const margin = marginAssets(venue)[0] ?? 'USDT';
  const alias = accountAlias(accountId);
  const assets = [
    ...RECORDED_ASSETS,
    ...[...holdings.keys()].filter((a) => !RECORDED_ASSETS.includes(a)),
  ];
  return assets.map((asset) => {
    if (asset === margin) {
      const wallet = walletBalance(venue, accountId).round(8).toFixed(8);
      const available = freeMargin(venue, accountId).round(8).toFixed(8);
      return {
        accountAlias: alias,
        asset,
        balance: wallet,
        crossWalletBalance: wallet,
        crossUnPnl: unrealizedTotal(venue, accountId).round(8).toFixed(8),
        availableBalance: available,
        maxWithdrawAmount: available,
        marginAvailable: true,
        updateTime: nowMs,
      };
    }
    const held = holdings.get(asset);
    const amount = (held ?? new Big(0)).round(8).toFixed(8);
    return {
      accountAlias: alias,
      asset,
      balance: amount,
      crossWalletBalance: amount,
      crossUnPnl: '0.00000000',
      availableBalance: amount,
      maxWithdrawAmount: amount,
      marginAvailable: !NOT_MARGIN.has(asset),
      updateTime: held ? nowMs : 0,
    };
  });
}

const accountAlias = (accountId: string): string => accountId.slice(2, 10);

/** The account's `assets` beside its margin: each asset it holds, which carries no margin or PnL. */
function heldAssets(listed: ReturnType<typeof balances>, margin: string) {
  return listed
    .filter((entry) => entry.asset !== margin && entry.balance !== '0.00000000')
    .map((entry) => ({
      asset: entry.asset,
      walletBalance: entry.balance,
      unrealizedProfit: '0.00000000',
      marginBalance: entry.balance,
      maintMargin: '0.00000000',
      initialMargin: '0.00000000',
      positionInitialMargin: '0.00000000',
      openOrderInitialMargin: '0.00000000',
      crossWalletBalance: entry.crossWalletBalance,
      crossUnPnl: '0.00000000',
      availableBalance: entry.availableBalance,
      maxWithdrawAmount: entry.maxWithdrawAmount,
      marginAvailable: entry.marginAvailable,
      updateTime: entry.updateTime,
    }));
}

/** The margin asset's entry of the account's `assets`: its balance, the margin it holds, its PnL. */
function marginEntry(
  venue: VenueEngine,
  accountId: string,
  balance: ReturnType<typeof balances>[number],
  nowMs: number,
) {
  const used = usedMargin(venue, accountId).round(8).toFixed(8);
  const marginBalance = walletBalance(venue, accountId).plus(unrealizedTotal(venue, accountId));
  return {
    asset: balance.asset,
    walletBalance: balance.balance,
    unrealizedProfit: balance.crossUnPnl,
    marginBalance: marginBalance.round(8).toFixed(8),
    maintMargin: '0.00000000',
    initialMargin: used,
    positionInitialMargin: used,
    openOrderInitialMargin: '0.00000000',
    crossWalletBalance: balance.crossWalletBalance,
    crossUnPnl: balance.crossUnPnl,
    availableBalance: balance.availableBalance,
    maxWithdrawAmount: balance.maxWithdrawAmount,
    marginAvailable: true,
    updateTime: nowMs,
  };
}

/**
 * `GET /fapi/v3/account` (and v4, which ccxt's fetchAccountPositions reads):
 * totals of the one collateral, and every symbol's position (cross, one-way).
 */
export function accountInfo(
  venue: VenueEngine,
  accountId: string,
  nowMs: number,
  holdings: ReadonlyMap<string, Big>,
) {
  const listed = balances(venue, accountId, nowMs, holdings);
  const margin = marginAssets(venue)[0] ?? 'USDT';
  const balance = listed.find((entry) => entry.asset === margin)!;
  const asset = marginEntry(venue, accountId, balance, nowMs);
  const used = asset.initialMargin;
  return {
    feeTier: 0,
    canTrade: true,
    canDeposit: true,
    canWithdraw: true,
    updateTime: nowMs,
    totalInitialMargin: used,
    totalMaintMargin: '0.00000000',
    totalWalletBalance: balance.balance,
    totalUnrealizedProfit: balance.crossUnPnl,
    totalMarginBalance: asset.marginBalance,
    totalPositionInitialMargin: used,
    totalOpenOrderInitialMargin: '0.00000000',
    totalCrossWalletBalance: balance.crossWalletBalance,
    totalCrossUnPnl: balance.crossUnPnl,
    availableBalance: balance.availableBalance,
    maxWithdrawAmount: balance.maxWithdrawAmount,
    assets: [asset, ...heldAssets(listed, margin)],
    positions: [...venue.markets.values()].map((market) => {
      const risk = positionRisk(venue, accountId, market);
      const initial = new Big(risk.notional).abs().div(market.spec.maxLeverage).round(8).toFixed(8);
      return {
        symbol: risk.symbol,
        initialMargin: initial,
        maintMargin: '0',
        unrealizedProfit: risk.unRealizedProfit,
        positionInitialMargin: initial,
        openOrderInitialMargin: '0',
        leverage: risk.leverage,
        isolated: false,
        entryPrice: risk.entryPrice,
        maxNotional: risk.maxNotionalValue,
        positionSide: 'BOTH',
        positionAmt: risk.positionAmt,
        notional: risk.notional,
        updateTime: 0,
      };
    }),
  };
}
