import type { Trade } from '@sts/sdk';
import { decimalSum } from './decimals';

type LegCosts = Trade['costs']['long'];
type VenueMode = Trade['long_mode'];

const MODE_LABEL: Record<VenueMode, string> = { paper: 'PAPER', live: 'LIVE' };

/** `PAPER`, `LIVE`, or `LIVE/PAPER` (long/short, as the venues column) when the legs differ. */
export const modeLabel = (trade: Trade): string =>
  trade.long_mode === trade.short_mode
    ? MODE_LABEL[trade.long_mode]
    : `${MODE_LABEL[trade.long_mode]}/${MODE_LABEL[trade.short_mode]}`;

/** The mode in words: where the trade's orders go, and whether they move real money. */
export function modeNote(trade: Trade): string {
  if (trade.long_mode === trade.short_mode) {
    return trade.long_mode === 'live'
      ? 'LIVE: both legs on the venues themselves, real money'
      : 'PAPER: both legs on the simulator, no real money';
  }
  const live = trade.long_mode === 'live' ? trade.long_exchange : trade.short_exchange;
  return (
    `long ${MODE_LABEL[trade.long_mode]} on ${trade.long_exchange}, ` +
    `short ${MODE_LABEL[trade.short_mode]} on ${trade.short_exchange}: real money on ${live}`
  );
}

/** `0.039 USDC`; a fee whose asset the venue did not say is `(asset unknown)`. */
const feeText = (fee: LegCosts['fees'][number]): string =>
  `${fee.amount} ${fee.asset ?? '(asset unknown)'}`;

/** `0.004 filled at 65000 avg, 1 fill, fees 0.039 USDC`, or `nothing filled`. */
export function legCosts(leg: LegCosts): string {
  if (leg.fills === 0 || leg.avg_price === null) {
    return 'nothing filled';
  }
  const parts = [
    `${leg.filled_size} filled at ${leg.avg_price} avg`,
    `${leg.fills} fill${leg.fills === 1 ? '' : 's'}`,
    leg.fees.length > 0 ? `fees ${leg.fees.map(feeText).join(' + ')}` : 'no fees',
  ];
  if (leg.fills_without_fee > 0) {
    parts.push(`${leg.fills_without_fee} without a fee reported`);
  }
  return parts.join(', ');
}

/** `6 absolute, -16.7512 after fees`; `-` until both legs filled. */
export function realisedSpread(trade: Trade): string {
  const { realised_spread: realised, realised_spread_after_fees: afterFees } = trade.costs;
  if (realised === null) {
    return '-';
  }
  const net = afterFees === null ? 'after fees unknown' : `${afterFees} after fees`;
  return `${realised} ${trade.spread_type}, ${net}`;
}

/** Both legs' fees summed per asset, exactly: `0.039 USDC + 0.0520048 USD`; null when none. */
export function feesTotal(trade: Trade): string | null {
  const byAsset = new Map<string | null, string[]>();
  for (const fee of [...trade.costs.long.fees, ...trade.costs.short.fees]) {
    byAsset.set(fee.asset, [...(byAsset.get(fee.asset) ?? []), fee.amount]);
  }
  if (byAsset.size === 0) {
    return null;
  }
  return [...byAsset]
    .map(([asset, amounts]) => feeText({ asset, amount: decimalSum(amounts) }))
    .join(' + ');
}

/** A list line's costs: the realised spread and the fees, each once there is one. */
export function costsSummary(trade: Trade): string[] {
  const fees = feesTotal(trade);
  return [
    ...(trade.costs.realised_spread === null ? [] : [`realised ${realisedSpread(trade)}`]),
    ...(fees ? [`fees ${fees}`] : []),
  ];
}

/** `0.769 bps (hedges, weighted by size)`; `-` before a hedge filled. */
export const hedgeSlippage = (trade: Trade): string =>
  trade.costs.avg_hedge_slippage_bps === null
    ? '-'
    : `${trade.costs.avg_hedge_slippage_bps} bps (hedges, weighted by size)`;
