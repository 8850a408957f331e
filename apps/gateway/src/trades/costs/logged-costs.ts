import Big from 'big.js';
import type { LogDataOf, LogEntry } from '@sts/contracts';
import { countedFills, type CostFill, type HedgeSlippage, type MakerLeg } from '@sts/domain';

export interface LoggedCosts {
  long: CostFill[];
  short: CostFill[];
  hedges: HedgeSlippage[];
}

/** A fill entry's price, size and fee (an entry logged before fees has none). */
const costFill = (data: LogDataOf['maker_fill'] | LogDataOf['hedge_filled']): CostFill => ({
  price: new Big(data.price),
  size: new Big(data.size),
  fee: data.fee === null ? null : new Big(data.fee),
  feeAsset: data.fee === null ? null : data.fee_asset,
});

const hedgeSlippage = (data: LogDataOf['hedge_outcome']): HedgeSlippage | null =>
  data.slippage_bps === null
    ? null
    : { filledSize: new Big(data.filled_size), slippageBps: new Big(data.slippage_bps) };

/**
 * The fills of a trade's decoded log by leg: maker_fill on the maker leg
 * (once per venue fill id), hedge_filled on the other (once per order), and
 * the hedge_outcome slippages; other entries are not costs.
 */
export function loggedCosts(makerLeg: MakerLeg, entries: readonly LogEntry[]): LoggedCosts {
  const maker: CostFill[] = [];
  const hedge: CostFill[] = [];
  const hedges: HedgeSlippage[] = [];
  for (const entry of entries) {
    const slippage = entry.eventType === 'hedge_outcome' ? hedgeSlippage(entry.data) : null;
    if (slippage) {
      hedges.push(slippage);
    }
  }
  // A fill is logged once, but a recovery must never make it count twice.
  for (const entry of countedFills(entries)) {
    if (entry.eventType === 'maker_fill' || entry.eventType === 'hedge_filled') {
      (entry.eventType === 'maker_fill' ? maker : hedge).push(costFill(entry.data));
    }
  }
  return makerLeg === 'long'
    ? { long: maker, short: hedge, hedges }
    : { long: hedge, short: maker, hedges };
}
