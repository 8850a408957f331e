import type { ResultsQuery, ResultsReport, ResultsTotals, StsClient } from '@sts/sdk';
import type { CliIo, Settings } from '../io';
import { printJson, table } from '../output';

export interface ResultsFlags {
  from?: string;
  to?: string;
  groupBy?: string;
}

/** The key column's header per grouping: a week is named by its Monday. */
const KEY_HEADER: Record<ResultsReport['group_by'], string> = {
  day: 'DAY',
  week: 'WEEK OF',
  market: 'MARKET',
  venue: 'VENUE',
};

/**
 * `results`: the caller's trading results over a window (`--from`, `--to`;
 * the API's default: the 30 days to now) per day, ISO week, market or venue,
 * as a table with a totals row, then what the figures lack: the accounts
 * whose funding could not be read now and the fills whose fee was not in a
 * USD asset. The grouping and the window are the API's to judge.
 */
export async function showResults(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  flags: ResultsFlags,
): Promise<void> {
  const query: ResultsQuery = {
    ...(flags.from !== undefined ? { from: flags.from } : {}),
    ...(flags.to !== undefined ? { to: flags.to } : {}),
    ...(flags.groupBy !== undefined ? { group_by: flags.groupBy as ResultsQuery['group_by'] } : {}),
  };
  const report = await client.results(query);
  if (settings.json) {
    return printJson(io, report);
  }
  io.stdout(resultsText(report));
}

/** A row's figures in the table's order, the API's decimals as they came. */
const figures = (row: ResultsTotals): string[] => [
  String(row.trades),
  String(row.fills),
  row.volume,
  row.realised_spread,
  row.fees,
  row.funding_paid,
  row.funding_received,
  row.net,
];

/** What the figures leave out, one line each: funding not read now, fees in no USD asset. */
function notes(report: ResultsReport): string[] {
  const unread = report.funding_unread.map(
    (account) =>
      `funding not read now on ${account.exchange} ${account.wallet} (${account.error}): its funding is what was read before`,
  );
  const unpriced =
    report.unpriced_fees === 0
      ? []
      : [
          `${report.unpriced_fees} ${report.unpriced_fees === 1 ? 'fill' : 'fills'} with a fee in an asset not priced in ${report.currency}: left out of FEES and NET`,
        ];
  return [...unread, ...unpriced];
}

export function resultsText(report: ResultsReport): string {
  const title = `results by ${report.group_by} from ${report.from} to ${report.to} (${report.currency}; NET = REALISED - FEES - FUNDING PAID + FUNDING RECEIVED)`;
  const tail = notes(report).map((line) => `${line}\n`);
  if (report.rows.length === 0) {
    return [`${title}\n`, 'no fills in this window\n', ...tail].join('');
  }
  const rows = [
    [
      KEY_HEADER[report.group_by],
      'TRADES',
      'FILLS',
      'VOLUME',
      'REALISED',
      'FEES',
      'FUNDING PAID',
      'FUNDING RECEIVED',
      'NET',
    ],
    ...report.rows.map((row) => [row.key, ...figures(row)]),
    ['total', ...figures(report.totals)],
  ];
  return [`${title}\n`, `${table(rows)}\n`, ...tail].join('');
}
