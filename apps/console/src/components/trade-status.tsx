import type { Trade, TradeStatus } from '@sts/sdk';
import Big from 'big.js';
import { residualSummary, type ResidualFields } from './residual';

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

/** What the trade left unhedged at its end: a warning while some stays one-sided, else a note. */
export function ResidualNotice({ trade }: { trade: ResidualFields }) {
  const summary = residualSummary(trade);
  if (!summary) {
    return null;
  }
  return (
    <p
      className={summary.oneSided ? 'error' : 'muted'}
      role={summary.oneSided ? 'alert' : undefined}
      data-testid="residual-unhedged"
    >
      {summary.oneSided ? 'Unhedged remainder: ' : 'Remainder unwound: '}
      {summary.text}
    </p>
  );
}

/** A short flag for a trade list: what stays one-sided, if anything. */
export function ResidualFlag({ trade }: { trade: ResidualFields }) {
  const summary = residualSummary(trade);
  if (!summary?.oneSided) {
    return null;
  }
  return (
    <span className="error" title={summary.text} data-testid="residual-flag">
      {' '}
      unhedged {summary.left} {trade.market}
    </span>
  );
}
