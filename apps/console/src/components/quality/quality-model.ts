import type { QualityReport } from '@sts/sdk';

/** The markout horizons, in seconds after the fill, as the API keys them. */
export const HORIZONS = ['1', '10', '60'] as const;
export type Horizon = (typeof HORIZONS)[number];

/** What the console shows for a figure the API answered null: not sampled, not known yet. Never 0. */
export const NONE = '—';

export const shown = (value: string | null | undefined): string => value ?? NONE;

/** A time the API gives in ms, in seconds to the millisecond ("4.250 s"); a dash for null. */
export const durationText = (ms: number | null): string =>
  ms === null ? NONE : `${(ms / 1000).toFixed(3)} s`;

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
