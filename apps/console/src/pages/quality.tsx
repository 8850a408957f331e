import type { QualityQuery, QualityReport } from '@sts/sdk';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { describeError } from '../api/api-error';
import { useChartTheme } from '../components/charts/chart-theme';
import {
  HORIZONS,
  localInputValue,
  markoutCurves,
  QUOTING_FIGURES,
  quotingTexts,
  shown,
  type CurveStatistic,
} from '../components/quality/quality-model';
import { useSignedIn } from '../session/session';

// The charting library loads with the page, not with the sign-in.
const MarkoutChart = lazy(() =>
  import('../components/quality/markout-chart').then((module) => ({
    default: module.MarkoutChart,
  })),
);

type GroupBy = NonNullable<QualityQuery['group_by']>;
type QualityGroup = QualityReport['groups'][number];
type Distribution = QualityGroup['hedge_slippage_bps'];

const GROUPINGS: ReadonlyArray<[GroupBy, string]> = [
  ['venue', 'Venue'],
  ['market', 'Market'],
  ['side', 'Side'],
];

/**
 * Execution quality over a window (issue 60): the caller's maker fills and
 * quoting in [from, to) grouped by venue, market or side, as GET /quality
 * answers: a markout curve per group (mean or median at 1, 10 and 60 s), a
 * table of counts, means and percentiles per horizon, of the hedges' slippage
 * against the decision and against the arrival mid and of the time to a
 * trade's first fill, and a table of the quoting per group (time quoted,
 * orders, fills per quote-hour, re-quotes and cancels per fill).
 */
export function QualityPage() {
  const { api } = useSignedIn();
  const [report, setReport] = useState<QualityReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [groupBy, setGroupBy] = useState<GroupBy>('venue');
  const [statistic, setStatistic] = useState<CurveStatistic>('mean');

  const load = useCallback(
    (query: QualityQuery) =>
      api.quality(query).then(
        (answer) => {
          setReport(answer);
          setError(null);
          setFrom(localInputValue(answer.from));
          setTo(localInputValue(answer.to));
        },
        (failure: unknown) => setError(describeError(failure)),
      ),
    [api],
  );

  // First the API's default window (the last 7 days), by venue.
  useEffect(() => {
    void load({ group_by: 'venue' });
  }, [load]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void load({
      group_by: groupBy,
      ...(from ? { from: new Date(from).toISOString() } : {}),
      // The input holds minutes; the window runs to the end of the minute chosen.
      ...(to ? { to: new Date(new Date(to).getTime() + 60_000).toISOString() } : {}),
    });
  };

  return (
    <main className="quality">
      <h1>Execution quality</h1>
      <p className="muted">
        Markouts: the maker venue&apos;s mid 1, 10 and 60 s after each maker fill against the fill
        price; hedge slippage: each hedge against the hedge venue&apos;s price when the maker
        filled; arrival slippage: against the hedge venue&apos;s mid when the hedge&apos;s first
        order went. In bps, positive when good for the trader. Time to first fill: from a
        trade&apos;s creation to its first maker fill, in ms. Quoting: how long maker orders were
        out and what was sent, against the fills; a trade that quoted and never filled counts.
      </p>
      <form className="quality-window" onSubmit={submit} aria-label="Window and grouping">
        <label>
          From{' '}
          <input type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To <input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <label>
          Group by{' '}
          <select value={groupBy} onChange={(e) => setGroupBy(e.target.value as GroupBy)}>
            {GROUPINGS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Curves{' '}
          <select
            value={statistic}
            onChange={(e) => setStatistic(e.target.value as CurveStatistic)}
          >
            <option value="mean">mean</option>
            <option value="p50">median (p50)</option>
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {report === null && !error && <p role="status">Loading…</p>}
      {report && <QualityReportView report={report} statistic={statistic} />}
    </main>
  );
}

function QualityReportView(props: { report: QualityReport; statistic: CurveStatistic }) {
  const { report, statistic } = props;
  const theme = useChartTheme();
  const curves = useMemo(() => markoutCurves(report, statistic), [report, statistic]);
  const window = `${new Date(report.from).toLocaleString()} to ${new Date(report.to).toLocaleString()}`;
  return (
    <>
      <p data-testid="quality-window" data-from={report.from} data-to={report.to}>
        Maker fills and quoting from {window}, by {report.group_by}
      </p>
      {report.groups.length === 0 && <p>No maker fill or quoting in this window.</p>}
      <figure className="chart" aria-labelledby="markout-chart-caption">
        <figcaption id="markout-chart-caption">
          <strong>Markout curves ({statistic === 'mean' ? 'mean' : 'median'}, bps)</strong>
          <dl className="chart-legend">
            {report.groups.map((group, index) => {
              const colour = theme.series[index % theme.series.length];
              return (
                <div
                  key={group.group}
                  className="legend-entry"
                  data-testid="markout-series"
                  data-group={group.group}
                  data-colour={colour}
                >
                  <dt style={{ color: colour }}>{group.group}</dt>
                  <dd>
                    {HORIZONS.map(
                      (horizon) => `${horizon} s: ${shown(group.markout_bps[horizon][statistic])}`,
                    ).join(', ')}
                  </dd>
                </div>
              );
            })}
          </dl>
        </figcaption>
        <Suspense fallback={<p role="status">Loading the chart…</p>}>
          <MarkoutChart curves={curves} statistic={statistic} />
        </Suspense>
      </figure>
      <table data-testid="quality-table">
        <thead>
          <tr>
            <th scope="col">{report.group_by}</th>
            <th scope="col">Fills</th>
            <th scope="col">Measure</th>
            <th scope="col">Count</th>
            <th scope="col">Mean</th>
            <th scope="col">p5</th>
            <th scope="col">p50</th>
            <th scope="col">p95</th>
          </tr>
        </thead>
        {report.groups.map((group) => (
          <tbody key={group.group}>
            {HORIZONS.map((horizon) => (
              <DistributionRow
                key={horizon}
                group={group}
                measure={horizon}
                label={`markout ${horizon} s`}
                distribution={group.markout_bps[horizon]}
              />
            ))}
            <DistributionRow
              group={group}
              measure="hedge"
              label="hedge slippage"
              distribution={group.hedge_slippage_bps}
            />
            <DistributionRow
              group={group}
              measure="arrival"
              label="hedge slippage against arrival"
              distribution={group.hedge_arrival_slippage_bps}
            />
            <DistributionRow
              group={group}
              measure="first-fill"
              label="time to first fill (ms)"
              distribution={group.time_to_first_fill_ms}
            />
          </tbody>
        ))}
      </table>
      <QuotingTable report={report} />
    </>
  );
}

/** Per group its quoting against its fills: where quotes sit unfilled, fills per quote-hour fall. */
function QuotingTable({ report }: { report: QualityReport }) {
  if (report.groups.length === 0) {
    return null;
  }
  return (
    <section aria-labelledby="quoting-title">
      <h2 id="quoting-title">Quoting</h2>
      <table data-testid="quoting-table">
        <thead>
          <tr>
            <th scope="col">{report.group_by}</th>
            <th scope="col">Fills</th>
            {QUOTING_FIGURES.map(([field, label]) => (
              <th scope="col" key={field}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.groups.map((group) => {
            const texts = quotingTexts(group.quoting);
            return (
              <tr key={group.group} data-testid="quoting-row" data-group={group.group}>
                <th scope="row">{group.group}</th>
                <td>{group.fills}</td>
                {QUOTING_FIGURES.map(([field]) => (
                  <td key={field} data-field={field}>
                    {texts[field]}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function DistributionRow(props: {
  group: QualityGroup;
  measure: string;
  label: string;
  distribution: Distribution;
}) {
  const { group, measure, label, distribution } = props;
  return (
    <tr data-testid="quality-row" data-group={group.group} data-measure={measure}>
      <th scope="row">{group.group}</th>
      <td>{group.fills}</td>
      <td>{label}</td>
      <td>{distribution.count}</td>
      <td>{shown(distribution.mean)}</td>
      <td>{shown(distribution.p5)}</td>
      <td>{shown(distribution.p50)}</td>
      <td>{shown(distribution.p95)}</td>
    </tr>
  );
}
