import type { Trade, TradeStatus } from '@sts/sdk';
import Big from 'big.js';

export function StatusBadge({ status }: { status: TradeStatus | string }) {
  return <span className={`status status-${status}`}>{status}</span>;
}

/** Filled against target as a percentage (0 to 100), for a progress bar. */
export function filledPercent(trade: Pick<Trade, 'filled_size' | 'target_size'>): number {
  const target = new Big(trade.target_size);
  if (target.lte(0)) {
    return 0;
  }
  const percent = new Big(trade.filled_size).div(target).times(100);
  return Math.min(100, Number(percent.toFixed(1)));
}

export function FillProgress({
  trade,
}: {
  trade: Pick<Trade, 'filled_size' | 'target_size' | 'size_type'>;
}) {
  const percent = filledPercent(trade);
  const text =
    `${trade.filled_size} of ${trade.target_size} ${trade.size_type === 'notional' ? 'USD' : ''}`.trim();
  return (
    <span className="fill">
      <progress max={100} value={percent} aria-label={`filled ${text}`} />
      <span data-testid="filled">{text}</span>
    </span>
  );
}
