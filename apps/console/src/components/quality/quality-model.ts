import type { QualityReport, TradeQuality } from '@sts/sdk';

/** The markout horizons, in seconds after the fill, as the API keys them. */
export const HORIZONS = ['1', '10', '60'] as const;
export type Horizon = (typeof HORIZONS)[number];

/** What the console shows for a figure the API answered null: not sampled, not known yet. Never 0. */
export const NONE = '—';

export const shown = (value: string | null | undefined): string => value ?? NONE;

/** A time the API gives in ms, in seconds to the millisecond ("4.250 s"); a dash for null. */
export const durationText = (ms: number | null): string =>
  ms === null ? NONE : `${(ms / 1000).toFixed(3)} s`;

/** A trade's or a group's maker quoting: time quoted, orders, and fills against them. */
export type Quoting = TradeQuality['quoting'];
type HedgeQuality = TradeQuality['fills'][number]['hedges'][number];

/** The quoting figures in the order the console shows them, each with its name. */
export const QUOTING_FIGURES: ReadonlyArray<[keyof Quoting, string]> = [
  ['quoted_ms', 'Time quoted'],
  ['orders_placed', 'Orders placed'],
  ['orders_replaced', 'Replaced'],
  ['cancels', 'Canceled'],
  ['requotes', 'Re-quotes'],
  ['fills_per_quote_hour', 'Fills per quote-hour'],
  ['requotes_per_fill', 'Re-quotes per fill'],
  ['cancels_per_fill', 'Cancels per fill'],
];

/**
 * Each quoting figure as shown: the time quoted in seconds, the counts, the
 * rates as the API's decimals; a rate the API answers null (nothing quoted,
 * or no fill to divide by) is a dash.
 */
export const quotingTexts = (quoting: Quoting): Record<keyof Quoting, string> => ({
  quoted_ms: durationText(quoting.quoted_ms),
  orders_placed: String(quoting.orders_placed),
  orders_replaced: String(quoting.orders_replaced),
  cancels: String(quoting.cancels),
  requotes: String(quoting.requotes),
  fills_per_quote_hour: shown(quoting.fills_per_quote_hour),
  requotes_per_fill: shown(quoting.requotes_per_fill),
  cancels_per_fill: shown(quoting.cancels_per_fill),
});

/**
 * A fill's hedges' slippage against the hedge venue's mid when each hedge's
 * first IOC went, in log order; a dash for a hedge without an arrival mid,
 * and for a fill with no hedge.
 */
export const arrivalSlippageText = (hedges: readonly HedgeQuality[]): string =>
  hedges.length === 0 ? NONE : hedges.map((hedge) => shown(hedge.arrival_slippage_bps)).join(', ');

/** Which figure of each horizon's distribution the markout curves draw. */
export type CurveStatistic = 'mean' | 'p50';

export interface MarkoutCurve {
  group: string;
  /** One point per horizon; null where no fill of the group was sampled at it. */
  points: Array<{ horizon: number; bps: number | null }>;
}

/**
 * One curve per group of the report: its mean or median markout at 1, 10 and
 * 60 s. Numbers for the canvas only: the table and the legend show the API's
 * decimal strings.
 */
export function markoutCurves(report: QualityReport, statistic: CurveStatistic): MarkoutCurve[] {
  return report.groups.map((group) => ({
    group: group.group,
    points: HORIZONS.map((horizon) => {
      const value = group.markout_bps[horizon][statistic];
      return { horizon: Number(horizon), bps: value === null ? null : Number(value) };
    }),
  }));
}

/** A `datetime-local` input's value (local time, to the minute) for an instant. */
export function localInputValue(iso: string): string {
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
