import Big from 'big.js';
import type { MarketState } from '../../engine/market-state';
import { ExtendedError, type ExtendedAccount } from './extended-accounts';
import type { ParsedOrder } from './extended-order-request';
import { orderMessageHash, verifyOrderSignature } from './extended-signing';

/** The resolutions of the simulated markets' StarkEx assets (units per whole asset). */
export const SYNTHETIC_RESOLUTION = 1_000_000;
export const COLLATERAL_RESOLUTION = 1_000_000;
/** The collateral asset's StarkEx id (USD), and each synthetic's: the market name as a short string. */
export const COLLATERAL_ID = '0x1';
/** A settlement outlives its order by 14 days (ccxt and the venue's SDK add it). */
const SETTLEMENT_MARGIN_S = 1_209_600;

/** The synthetic asset id of a market: its name as a short string, in hex. */
export function syntheticIdOf(market: string): string {
  return `0x${Buffer.from(market, 'ascii').toString('hex')}`;
}

/**
 * Rebuilds the settlement the order implies and checks its signature against
 * the account's key; the fee cap must cover the venue's taker fee.
 */
export function checkSettlement(
  account: ExtendedAccount,
  order: ParsedOrder,
  market: MarketState,
  takerFeeBps: number,
): void {
  const { settlement } = order;
  if (BigInt(settlement.starkKey) !== account.starkKey) {
    throw new ExtendedError(400, 1100, 'Invalid Starknet public key.');
  }
  if (BigInt(settlement.collateralPosition) !== BigInt(account.vault)) {
    throw new ExtendedError(400, 1102, 'Invalid Starknet vault.');
  }
  if (new Big(order.fee).lt(new Big(takerFeeBps).div(10_000))) {
    throw new ExtendedError(400, 1128, 'Trading fees are invalid.');
  }
  const isBuy = order.side === 'BUY';
  const value = new Big(order.qty).times(order.price);
  const base = starkAmount(new Big(order.qty), SYNTHETIC_RESOLUTION, isBuy);
  const quote = starkAmount(value, COLLATERAL_RESOLUTION, isBuy);
  const fee = starkAmount(new Big(order.fee).times(value), COLLATERAL_RESOLUTION, true);
  const hash = orderMessageHash(
    {
      positionId: BigInt(account.vault),
      baseAssetId: BigInt(syntheticIdOf(market.spec.symbol)),
      baseAmount: isBuy ? base : -base,
      quoteAssetId: BigInt(COLLATERAL_ID),
      quoteAmount: isBuy ? -quote : quote,
      feeAssetId: BigInt(COLLATERAL_ID),
      feeAmount: fee,
      expiration: BigInt(Math.floor((order.expiryEpochMillis + 999) / 1000) + SETTLEMENT_MARGIN_S),
      salt: BigInt(order.nonce),
    },
    account.starkKey,
  );
  if (!verifyOrderSignature(settlement.r, settlement.s, hash, account.starkKey)) {
    throw new ExtendedError(400, 1101, 'Invalid Starknet signature.');
  }
}

/** An amount in a StarkEx resolution: truncated, or up to the next unit when asked. */
function starkAmount(amount: Big, resolution: number, roundUp: boolean): bigint {
  const scaled = amount.times(resolution);
  const whole = scaled.round(0, Big.roundDown);
  return BigInt((roundUp && scaled.gt(whole) ? whole.plus(1) : whole).toFixed(0));
}
