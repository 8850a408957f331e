import type {
  QualityDistribution,
  QualityQuery,
  QualityReport,
  StsClient,
  TradeQuality,
} from '@sts/sdk';
import { CliStop, EXIT, type CliIo, type Settings } from '../io';
import { printJson, table } from '../output';

export interface QualityFlags {
  trade?: string;
  from?: string;
  to?: string;
  groupBy?: string;
}

const HORIZONS = ['1', '10', '60'] as const;

/**
 * `quality`: with `--trade`, one trade's fills with their markouts and hedge
 * slippage (against the decision and against the arrival mid), and the
 * trade's spread against its target and against the spread at its start,
 * its times and its quoting; else the caller's fills and quoting over a
 * window (`--from`, `--to`; the API's default: the last 7 days) per venue,
 * market or side, as a table of count, mean, p5, p50 and p95 per markout
 * horizon, for the hedges and for the time to the first fill, then a table
 * of the quoting per group. All bps are positive when good for the trader.
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

const shown = (value: string | number | null): string => (value === null ? '-' : String(value));

const duration = (ms: number | null): string => (ms === null ? '-' : `${(ms / 1000).toFixed(3)} s`);

type Quoting = TradeQuality['quoting'];
type HedgeQuality = TradeQuality['fills'][number]['hedges'][number];

/** A fill's hedges' figure, one per hedge in log order; `-` for a fill with none. */
const hedgeCell = (
  hedges: readonly HedgeQuality[],
  figure: 'slippage_bps' | 'arrival_slippage_bps',
): string => (hedges.length === 0 ? '-' : hedges.map((hedge) => shown(hedge[figure])).join(','));

/**
 * The trade's quoting in one line: time quoted (with its share of the
 * trade's life once the trade ended), the orders sent, and the rates.
 */
function quotingLine(quoting: Quoting, quotedShare: string | null): string {
  const share = quotedShare === null ? '' : `, ${quotedShare} of its life`;
  return [
    `${duration(quoting.quoted_ms)}${share}`,
    `placed ${quoting.orders_placed}`,
    `replaced ${quoting.orders_replaced}`,
    `canceled ${quoting.cancels}`,
    `fills/quote-hour ${shown(quoting.fills_per_quote_hour)}`,
    `re-quotes/fill ${shown(quoting.requotes_per_fill)}`,
  ].join('  ');
}

/**
 * The trade's realised spread against its target and against the spread the
 * market offered a maker as the trade went active: what waiting for the
 * target won or lost.
 */
const spreadLine = (quality: TradeQuality): string =>
  [
    `target ${quality.target_spread}`,
    `realised ${shown(quality.realised_spread)}`,
    `vs target ${shown(quality.realised_vs_target)}`,
    `at start ${shown(quality.spread_at_start)}`,
    `vs start ${shown(quality.realised_vs_start)}`,
  ].join('  ');

export function tradeQualityText(quality: TradeQuality): string {
  const head: Array<[string, string]> = [
    [
      'trade',
      `${quality.trade_id}  ${quality.status}  ${quality.market}  maker ${quality.maker_leg}`,
    ],
    ['spread', `${spreadLine(quality)} (${quality.spread_type})`],
    ['first fill', `${duration(quality.time_to_first_fill_ms)} after creation`],
    [
      'ended',
      quality.ended_at === null ? 'running' : `${duration(quality.time_to_end_ms)} after creation`,
    ],
    ['quoting', quotingLine(quality.quoting, quality.quoted_share)],
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
    [
      'FILL',
      'VENUE',
      'SIDE',
      'PRICE',
      'SIZE',
      'TIME',
      'MO 1s',
      'MO 10s',
      'MO 60s',
      'HEDGE SLIP',
      'ARRIVAL SLIP',
    ],
    ...quality.fills.map((fill) => [
      fill.fill_id,
      fill.exchange,
      fill.side,
      fill.price,
      fill.size,
      fill.timestamp,
      ...HORIZONS.map((horizon) => shown(fill.markout_bps[horizon])),
      hedgeCell(fill.hedges, 'slippage_bps'),
      hedgeCell(fill.hedges, 'arrival_slippage_bps'),
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
  const title = `quality by ${report.group_by}, fills and quoting from ${report.from} to ${report.to} (bps, positive good for you; first fill in ms)`;
  if (report.groups.length === 0) {
    return `${title}\nno maker fills or quoting\n`;
  }
  const distributions = [
    [report.group_by.toUpperCase(), 'FILLS', 'WHAT', 'N', 'MEAN', 'P5', 'P50', 'P95'],
    ...report.groups.flatMap((group) => [
      ...HORIZONS.map((horizon) => [
        group.group,
        String(group.fills),
        `markout ${horizon}s`,
        ...statCells(group.markout_bps[horizon]),
      ]),
      [group.group, String(group.fills), 'hedge slip', ...statCells(group.hedge_slippage_bps)],
      [
        group.group,
        String(group.fills),
        'arrival slip',
        ...statCells(group.hedge_arrival_slippage_bps),
      ],
      [
        group.group,
        String(group.fills),
        'first fill ms',
        ...statCells(group.time_to_first_fill_ms),
      ],
    ]),
  ];
  // Rates per quote-hour and per fill: a group that quoted and never filled shows `-` per fill.
  const quoting = [
    [
      report.group_by.toUpperCase(),
      'FILLS',
      'QUOTED',
      'PLACED',
      'REQUOTES',
      'FILLS/QH',
      'REQUOTES/FILL',
      'CANCELS/FILL',
    ],
    ...report.groups.map((group) => [
      group.group,
      String(group.fills),
      duration(group.quoting.quoted_ms),
      String(group.quoting.orders_placed),
      String(group.quoting.requotes),
      shown(group.quoting.fills_per_quote_hour),
      shown(group.quoting.requotes_per_fill),
      shown(group.quoting.cancels_per_fill),
    ]),
  ];
  return `${title}\n${table(distributions)}\n\nquoting (FILLS/QH: fills per hour quoted)\n${table(quoting)}\n`;
}
