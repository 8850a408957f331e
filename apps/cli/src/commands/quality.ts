import type {
  QualityDistribution,
  QualityQuery,
  QualityReport,
  StsClient,
  TradeQuality,
} from '@sts/sdk';
import { CliStop, EXIT, type CliIo, type Settings } from '../io';
import { printJson } from '../output';

export interface QualityFlags {
  trade?: string;
  from?: string;
  to?: string;
  groupBy?: string;
}

const HORIZONS = ['1', '10', '60'] as const;

/**
 * `quality`: with `--trade`, one trade's fills with their markouts and hedge
 * slippage, and the trade's spread against its target and its times; else
 * the caller's fills over a window (`--from`, `--to`; the API's default: the
 * last 7 days) per venue, market or side, as a table of count, mean, p5,
 * p50 and p95 per markout horizon and for the hedges. All bps are positive
 * when good for the trader.
 */
export async function showQuality(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  flags: QualityFlags,
): Promise<void> {
  if (flags.trade !== undefined) {
    if (flags.from !== undefined || flags.to !== undefined || flags.groupBy !== undefined) {
      throw new CliStop(
        '--trade shows one trade: --from, --to and --group-by are for the report over a window',
        'usage',
        EXIT.usage,
      );
    }
    const quality = await client.tradeQuality(flags.trade);
    if (settings.json) {
      return printJson(io, quality);
    }
    io.stdout(tradeQualityText(quality));
    return;
  }
  const query: QualityQuery = {
    ...(flags.from !== undefined ? { from: flags.from } : {}),
    ...(flags.to !== undefined ? { to: flags.to } : {}),
    ...(flags.groupBy !== undefined ? { group_by: flags.groupBy as QualityQuery['group_by'] } : {}),
  };
  const report = await client.quality(query);
  if (settings.json) {
    return printJson(io, report);
  }
  io.stdout(qualityReportText(report));
}

/** A cell of a number column: a decimal, or `-` for none. */
const NUMBER_CELL = /^(-|-?[0-9]+(\.[0-9]+)?)$/;

/**
 * Rows (the first is the header) as columns, each as wide as its widest
 * cell; a column of numbers (and `-`) is right-aligned, header included.
 */
export function table(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const [header, ...body] = rows;
  const widths = header.map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const numeric = header.map((_, column) => body.every((row) => NUMBER_CELL.test(row[column])));
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const shown = (value: string | number | null): string => (value === null ? '-' : String(value));

const duration = (ms: number | null): string => (ms === null ? '-' : `${(ms / 1000).toFixed(3)} s`);

export function tradeQualityText(quality: TradeQuality): string {
  const head: Array<[string, string]> = [
    [
      'trade',
      `${quality.trade_id}  ${quality.status}  ${quality.market}  maker ${quality.maker_leg}`,
    ],
    [
      'spread',
      `target ${quality.target_spread}  realised ${shown(quality.realised_spread)}  vs target ${shown(quality.realised_vs_target)} (${quality.spread_type})`,
    ],
    ['first fill', `${duration(quality.time_to_first_fill_ms)} after creation`],
    [
      'ended',
      quality.ended_at === null ? 'running' : `${duration(quality.time_to_end_ms)} after creation`,
    ],
    [
      'markout bps',
      HORIZONS.map((horizon) => `${horizon}s ${shown(quality.mean_markout_bps[horizon])}`).join(
        '  ',
      ) + `  (mean of ${quality.fills_count} fills)`,
    ],
  ];
  const lines = head.map(([name, value]) => `${name.padEnd(12)} ${value}`);
  if (quality.fills.length === 0) {
    return `${lines.join('\n')}\nno maker fills\n`;
  }
  const rows = [
    ['FILL', 'VENUE', 'SIDE', 'PRICE', 'SIZE', 'TIME', 'MO 1s', 'MO 10s', 'MO 60s', 'HEDGE SLIP'],
    ...quality.fills.map((fill) => [
      fill.fill_id,
      fill.exchange,
      fill.side,
      fill.price,
      fill.size,
      fill.timestamp,
      ...HORIZONS.map((horizon) => shown(fill.markout_bps[horizon])),
      fill.hedges.length === 0
        ? '-'
        : fill.hedges.map((hedge) => shown(hedge.slippage_bps)).join(','),
    ]),
  ];
  return `${lines.join('\n')}\n\n${table(rows)}\n`;
}

const statCells = (stats: QualityDistribution): string[] => [
  String(stats.count),
  shown(stats.mean),
  shown(stats.p5),
  shown(stats.p50),
  shown(stats.p95),
];

export function qualityReportText(report: QualityReport): string {
  const title = `quality by ${report.group_by}, fills from ${report.from} to ${report.to} (bps, positive good for you)`;
  if (report.groups.length === 0) {
    return `${title}\nno maker fills\n`;
  }
  const rows = [
    [report.group_by.toUpperCase(), 'FILLS', 'WHAT', 'N', 'MEAN', 'P5', 'P50', 'P95'],
    ...report.groups.flatMap((group) => [
      ...HORIZONS.map((horizon) => [
        group.group,
        String(group.fills),
        `markout ${horizon}s`,
        ...statCells(group.markout_bps[horizon]),
      ]),
      [group.group, String(group.fills), 'hedge slip', ...statCells(group.hedge_slippage_bps)],
    ]),
  ];
  return `${title}\n${table(rows)}\n`;
}
