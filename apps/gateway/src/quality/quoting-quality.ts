import Big from 'big.js';
import type { LogDataOf, LogEntry } from '@sts/contracts';
import { formatDecimal } from '@sts/domain';

const HOUR_MS = 3_600_000;

/** The quoting spells (`quoting` entries) of one or more trades, added up. */
export interface QuotingTotals {
  quotedMs: number;
  placed: number;
  replaced: number;
  canceled: number;
}

export const NO_QUOTING: QuotingTotals = { quotedMs: 0, placed: 0, replaced: 0, canceled: 0 };

/** A trade's quoting spells, in log order. */
export const quotingSpells = (entries: readonly LogEntry[]): Array<LogDataOf['quoting']> =>
  entries.flatMap((entry) => (entry.eventType === 'quoting' ? [entry.data] : []));

export const addSpell = (totals: QuotingTotals, spell: LogDataOf['quoting']): QuotingTotals => ({
  quotedMs: totals.quotedMs + spell.quoted_ms,
  placed: totals.placed + spell.placed,
  replaced: totals.replaced + spell.replaced,
  canceled: totals.canceled + spell.canceled,
});

/**
 * Quoting against what it filled. A re-quote is an order moved (a replace)
 * or taken down (a cancel: to rest another, or none); rates are null where
 * their divisor is zero.
 */
export interface QuotingView {
  quoted_ms: number;
  orders_placed: number;
  orders_replaced: number;
  cancels: number;
  requotes: number;
  /** Maker fills per hour an order was out. */
  fills_per_quote_hour: string | null;
  requotes_per_fill: string | null;
  cancels_per_fill: string | null;
}

const ratio = (count: number, per: number, scale = 1): string | null =>
  per === 0 ? null : formatDecimal(new Big(count).times(scale).div(per).round(6));

export function presentQuoting(totals: QuotingTotals, fills: number): QuotingView {
  const requotes = totals.replaced + totals.canceled;
  return {
    quoted_ms: totals.quotedMs,
    orders_placed: totals.placed,
    orders_replaced: totals.replaced,
    cancels: totals.canceled,
    requotes,
    fills_per_quote_hour: ratio(fills, totals.quotedMs, HOUR_MS),
    requotes_per_fill: ratio(requotes, fills),
    cancels_per_fill: ratio(totals.canceled, fills),
  };
}
