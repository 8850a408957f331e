import Big from 'big.js';
import { isDecimalString, type CostFill, type HedgeSlippage, type MakerLeg } from '@sts/domain';

/** A fill entry of the execution log, as the cost math reads it. */
export interface LoggedEntry {
  eventType: string;
  data: Record<string, unknown>;
}

export interface LoggedCosts {
  long: CostFill[];
  short: CostFill[];
  hedges: HedgeSlippage[];
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const decimalOf = (value: unknown): Big | null => (isDecimalString(value) ? new Big(value) : null);

/** A fill entry's price, size and fee; null for an entry without a price and a size. */
const costFill = (data: Record<string, unknown>): CostFill | null => {
  const price = decimalOf(data['price']);
  const size = decimalOf(data['size']);
  if (!price || !size) {
    return null;
  }
  const fee = decimalOf(data['fee']);
  return { price, size, fee, feeAsset: fee === null ? null : text(data['fee_asset']) };
};

const hedgeSlippage = (data: Record<string, unknown>): HedgeSlippage | null => {
  const filledSize = decimalOf(data['filled_size']);
  const slippageBps = decimalOf(data['slippage_bps']);
  return filledSize && slippageBps ? { filledSize, slippageBps } : null;
};

/**
 * The fills of a trade's log by leg: maker_fill on the maker leg (once per
 * venue fill id), hedge_filled on the other (once per order), and the
 * hedge_outcome slippages. Entries logged before fees were logged have none.
 */
export function loggedCosts(makerLeg: MakerLeg, entries: readonly LoggedEntry[]): LoggedCosts {
  const maker: CostFill[] = [];
  const hedge: CostFill[] = [];
  const hedges: HedgeSlippage[] = [];
  const seen = new Set<string>();
  for (const { eventType, data } of entries) {
    if (eventType === 'hedge_outcome') {
      const slippage = hedgeSlippage(data);
      if (slippage) {
        hedges.push(slippage);
      }
      continue;
    }
    // A fill is logged once, but a recovery must never make it count twice.
    const id = text(data[eventType === 'maker_fill' ? 'fill_id' : 'order_id']);
    const key = `${eventType}:${id}`;
    const fill = costFill(data);
    if (!fill || (id !== null && seen.has(key))) {
      continue;
    }
    seen.add(key);
    (eventType === 'maker_fill' ? maker : hedge).push(fill);
  }
  return makerLeg === 'long'
    ? { long: maker, short: hedge, hedges }
    : { long: hedge, short: maker, hedges };
}
