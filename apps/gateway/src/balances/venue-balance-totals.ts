import type { VenueConfig, VenueId } from '@sts/domain';

/**
 * Whether a venue's balance `total` (VenueBalance.total) already counts the
 * unrealised PnL of the account's open positions (it is the equity), or is
 * the wallet balance without it. The paper client's total is the
 * simulator's equity (`/balances`: collateral, realised PnL, fees, funding
 * and the positions' PnL at the marks). The live client's is ccxt's
 * `fetchBalance` total (libs/venues ccxt-mapping.ts `toBalances`), which
 * each venue's adapter fills from a different figure (ccxt 4.5.84):
 */
const LIVE_TOTAL_IS_EQUITY: Readonly<Record<VenueId, boolean>> = {
  // `clearinghouseState` marginSummary.accountValue: the account's value,
  // positions' PnL included. Under `unifiedAccount` ccxt reads the spot USDC
  // total instead, which the simulator's dialect answers with the same value.
  hyperliquid: true,
  // The perp read's `collateral`: deposits, realised PnL and fees; the
  // positions' PnL is in `total_asset_value`, which ccxt does not read.
  lighter: false,
  // `GET /v1/balance` `size` of each token: the settled balance; the
  // positions' PnL is in the account summary's `account_value`.
  paradex: false,
  // `user/spot/balances` `balance`: deposits, realised PnL and fees; equity
  // is `user/balance`, which ccxt does not read.
  extended: false,
  // `GET /fapi/v3/balance` `balance`: the wallet balance; the positions'
  // PnL is beside it (`crossUnPnl`).
  aster: false,
};

export const totalIsEquity = (venue: VenueConfig): boolean =>
  venue.mode === 'paper' || LIVE_TOTAL_IS_EQUITY[venue.id];
