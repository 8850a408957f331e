import type { ResultsReport, ResultsTotals } from '@sts/sdk';

/** The windows the Results page offers, in days back from now; the first page shows 30. */
export const WINDOW_DAYS = [7, 30, 90] as const;
export type WindowDays = (typeof WINDOW_DAYS)[number];
export const DEFAULT_WINDOW: WindowDays = 30;

const DAY_MS = 86_400_000;

/**
 * The window of `days` days up to `now`, as GET /results takes it: both
 * reports of the page (by day for the chart, by market for the table) ask
 * for this one window, so their totals are the same figures.
 */
export function windowOf(days: number, now: Date): { from: string; to: string } {
  return { from: new Date(now.getTime() - days * DAY_MS).toISOString(), to: now.toISOString() };
}

/** The figures of a row in the order the table shows them, each with its column's name. */
export const RESULT_FIGURES: ReadonlyArray<[keyof ResultsTotals, string]> = [
  ['trades', 'Trades'],
  ['fills', 'Fills'],
  ['volume', 'Volume'],
  ['realised_spread', 'Realised spread'],
  ['fees', 'Fees'],
  ['funding_paid', 'Funding paid'],
  ['funding_received', 'Funding received'],
  ['net', 'Net'],
];

/** A row's (or the totals') figures as shown: the counts, and the API's decimals exactly as they came. */
export const resultTexts = (row: ResultsTotals): Record<keyof ResultsTotals, string> => ({
  trades: String(row.trades),
  fills: String(row.fills),
  volume: row.volume,
  realised_spread: row.realised_spread,
  fees: row.fees,
  funding_paid: row.funding_paid,
  funding_received: row.funding_received,
  net: row.net,
});

/** A point of the cumulative net: the end of a UTC day, the net up to it. */
export interface NetPoint {
  /** The UTC day, as the API keys it (`2026-11-30`). */
  day: string;
  /** Seconds since the epoch of the day's start (lightweight-charts' UTCTimestamp). */
  time: number;
  /** That day's net, exactly as the API gave it ("0" for the window's ends). */
  net: string;
  /** The net of every day of the window up to and including this one, exact. */
  cumulative: string;
  /** `cumulative` as a number, for the canvas only. */
  value: number;
}

const dayOf = (iso: string): string => iso.slice(0, 10);
const secondsOfDay = (day: string): number => Date.parse(`${day}T00:00:00.000Z`) / 1000;

/**
 * The net summed day by day over the window, from a report by day (or by
 * week: a week's Monday stands for it): 0 at the window's first day, then
 * each day with activity, then held to the window's last day, so the line
 * spans the window chosen. Exact decimals for the legend; numbers to draw.
 */
export function cumulativeNet(report: ResultsReport): NetPoint[] {
  const points: NetPoint[] = [];
  let cumulative = '0';
  const add = (day: string, net: string) => {
    cumulative = decimalSum([cumulative, net]);
    points.push({ day, time: secondsOfDay(day), net, cumulative, value: Number(cumulative) });
  };
  const first = dayOf(report.from);
  if (report.rows.length === 0 || first < report.rows[0].key) {
    add(first, '0');
  }
  for (const row of report.rows) {
    add(row.key, row.net);
  }
  const last = dayOf(report.to);
  if (last > points[points.length - 1].day) {
    add(last, '0');
  }
  return points;
}

/** What the figures lack, in a trader's words: funding not read now, fees in no USD asset. */
export function resultNotes(report: ResultsReport): string[] {
  const unread = report.funding_unread.map(
    (account) =>
      `Funding on ${account.exchange} for ${account.wallet} could not be read now (${account.error}): its funding is what was read before.`,
  );
  const fills = report.unpriced_fees === 1 ? '1 fill' : `${report.unpriced_fees} fills`;
  const unpriced =
    report.unpriced_fees === 0
      ? []
      : [
          `${fills} paid a fee in an asset not priced in ${report.currency}: left out of the fees and the net.`,
        ];
  return [...unread, ...unpriced];
}

/** Decimal strings (canonical: no exponent) summed exactly, as a canonical decimal string. */
function decimalSum(values: readonly string[]): string {
  const scale = Math.max(0, ...values.map((value) => value.split('.')[1]?.length ?? 0));
  const units = values.reduce((sum, value) => {
    const negative = value.startsWith('-');
    const [whole, fraction = ''] = (negative ? value.slice(1) : value).split('.');
    const scaled = BigInt(whole + fraction.padEnd(scale, '0'));
    return sum + (negative ? -scaled : scaled);
  }, 0n);
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${units < 0n ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
