import type { ResultsReport } from '@sts/sdk';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { describeError } from '../api/api-error';
import {
  cumulativeNet,
  DEFAULT_WINDOW,
  RESULT_FIGURES,
  resultNotes,
  resultTexts,
  WINDOW_DAYS,
  windowOf,
  type WindowDays,
} from '../components/results/results-model';
import { useSignedIn } from '../session/session';

// The charting library loads with the page, not with the sign-in.
const NetChart = lazy(() =>
  import('../components/results/net-chart').then((module) => ({ default: module.NetChart })),
);

/** One window's two reports: by day for the chart, by market for the table. */
interface Results {
  byDay: ResultsReport;
  byMarket: ResultsReport;
}

/**
 * The trader's results (issue 58) over the last 7, 30 or 90 days, as GET
 * /results answers them: the net summed day by day as a chart, and per
 * market the trades, fills, volume, realised spread, fees, funding and net
 * with their totals; below them, what the figures could not include.
 */
export function ResultsPage() {
  const { api } = useSignedIn();
  const [days, setDays] = useState<WindowDays>(DEFAULT_WINDOW);
  const [results, setResults] = useState<Results | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // Both reports for one window; an answer for a window no longer chosen is dropped.
    let chosen = true;
    const window = windowOf(days, new Date());
    Promise.all([
      api.results({ ...window, group_by: 'day' }),
      api.results({ ...window, group_by: 'market' }),
    ]).then(
      ([byDay, byMarket]) => {
        if (chosen) {
          setResults({ byDay, byMarket });
          setError(null);
        }
      },
      (failure: unknown) => {
        if (chosen) {
          setError(describeError(failure));
        }
      },
    );
    return () => {
      chosen = false;
    };
  }, [api, days]);

  return (
    <main className="results">
      <h1>Results</h1>
      <p className="muted">
        What your trades made, in US dollars: the realised spread (what the matched long and short
        size captured, before fees), less the fees paid (a net rebate counts for you) and the
        funding paid, plus the funding received. Volume is the notional of every fill of both legs.
        Days are UTC days.
      </p>
      <fieldset className="results-window">
        <legend>Window</legend>
        {WINDOW_DAYS.map((option) => (
          <label key={option}>
            <input
              type="radio"
              name="results-window"
              value={option}
              checked={days === option}
              onChange={() => setDays(option)}
            />{' '}
            {option} days
          </label>
        ))}
      </fieldset>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {results === null && !error && <p role="status">Loading…</p>}
      {results && <ResultsView results={results} />}
    </main>
  );
}

function ResultsView({ results }: { results: Results }) {
  const { byDay, byMarket } = results;
  const points = useMemo(() => cumulativeNet(byDay), [byDay]);
  const notes = resultNotes(byMarket);
  const window = `${new Date(byDay.from).toLocaleString()} to ${new Date(byDay.to).toLocaleString()}`;
  return (
    <>
      <p data-testid="results-window" data-from={byDay.from} data-to={byDay.to}>
        From {window}, in {byDay.currency}
      </p>
      {notes.length > 0 && (
        <ul className="notice" aria-label="Not in these figures">
          {notes.map((note) => (
            <li key={note} data-testid="results-note">
              {note}
            </li>
          ))}
        </ul>
      )}
      <figure className="chart" aria-labelledby="net-chart-caption">
        <figcaption id="net-chart-caption">
          <strong>Cumulative net ({byDay.currency})</strong>
          <dl className="chart-legend">
            <dt>Net over the window</dt>
            <dd data-testid="results-net">{points[points.length - 1].cumulative}</dd>
            <dt>Days with fills</dt>
            <dd data-testid="results-days">{byDay.rows.length}</dd>
          </dl>
        </figcaption>
        <Suspense fallback={<p role="status">Loading the chart…</p>}>
          <NetChart points={points} currency={byDay.currency} />
        </Suspense>
      </figure>
      <section aria-labelledby="results-by-market-title">
        <h2 id="results-by-market-title">By market</h2>
        {byMarket.rows.length === 0 ? (
          <p>No fills in this window.</p>
        ) : (
          <ResultsTable report={byMarket} />
        )}
      </section>
    </>
  );
}

/** A row per market and the window's totals, each figure as the API gives it. */
function ResultsTable({ report }: { report: ResultsReport }) {
  const totals = resultTexts(report.totals);
  return (
    <table className="results-table" data-testid="results-table">
      <thead>
        <tr>
          <th scope="col">Market</th>
          {RESULT_FIGURES.map(([field, label]) => (
            <th scope="col" key={field}>
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {report.rows.map((row) => {
          const texts = resultTexts(row);
          return (
            <tr key={row.key} data-testid="results-row" data-market={row.key}>
              <th scope="row">{row.key}</th>
              {RESULT_FIGURES.map(([field]) => (
                <td key={field} data-field={field}>
                  {texts[field]}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr data-testid="results-totals">
          <th scope="row">Total</th>
          {RESULT_FIGURES.map(([field]) => (
            <td key={field} data-field={field}>
              {totals[field]}
            </td>
          ))}
        </tr>
      </tfoot>
    </table>
  );
}
