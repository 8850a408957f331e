import type { Trade, TradeEvent } from '@sts/sdk';
import { TERMINAL_STATUSES } from '@sts/sdk';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { describeError } from '../api/api-error';
import { ExecutionLog } from '../components/execution-log';
import { TradeQualityPanel } from '../components/quality/trade-quality';
import { TradeCostsPanel } from '../components/trade-costs';
import { FillProgress, ResidualNotice, StatusBadge } from '../components/trade-status';
import { VenueName } from '../components/venue-name';
import { useLiveSubscribed, useTradeEvents } from '../live/live';
import { useSignedIn } from '../session/session';
import { ManageTrade } from './manage-trade';

// The charting library loads with the first trade page, not with the sign-in.
const TradeCharts = lazy(() =>
  import('../components/charts/trade-charts').then((module) => ({ default: module.TradeCharts })),
);

/** The execution log is read incrementally (after_sequence) this often while the trade runs. */
const LOG_POLL_MS = 1_000;

interface TimelineEntry {
  status: string;
  at: string;
  how: string;
}

const openingTimeline = (trade: Trade): TimelineEntry[] => [
  { status: 'pending', at: trade.created_at, how: 'created' },
  ...(trade.status === 'pending'
    ? []
    : [{ status: trade.status, at: trade.updated_at, how: 'when this page opened' }]),
];

/** A page per trade: another trade id starts from a clean state. */
export function TradeDetailPage() {
  const { tradeId = '' } = useParams();
  return <TradeDetail key={tradeId} tradeId={tradeId} />;
}

function TradeDetail({ tradeId }: { tradeId: string }) {
  const { api } = useSignedIn();
  const [trade, setTrade] = useState<Trade | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [events, setEvents] = useState<TradeEvent[]>([]);
  const [timeline, setTimeline] = useState<TimelineEntry[]>([]);
  const lastSequence = useRef(0);

  const reloadTrade = useCallback(() => {
    api.getTrade(tradeId).then(
      (fresh) => {
        setTrade(fresh);
        setError(null);
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  }, [api, tradeId]);

  // The timeline opens with what the trade says of itself.
  useEffect(() => {
    let live = true;
    api.getTrade(tradeId).then(
      (fresh) => {
        if (live) {
          setTrade(fresh);
          setTimeline(openingTimeline(fresh));
        }
      },
      (failure: unknown) => live && setError(describeError(failure)),
    );
    return () => {
      live = false;
    };
  }, [api, tradeId]);

  useTradeEvents((event) => {
    setTimeline((entries) => [
      ...entries,
      { status: event.status, at: event.timestamp, how: event.event },
    ]);
    reloadTrade();
  }, tradeId);

  // Events are not replayed: once the socket listens (again), read what it may have missed.
  useLiveSubscribed(() => {
    api.getTrade(tradeId).then(
      (fresh) => {
        setTrade(fresh);
        setTimeline((entries) =>
          entries.length > 0 && entries[entries.length - 1].status !== fresh.status
            ? [
                ...entries,
                {
                  status: fresh.status,
                  at: fresh.updated_at,
                  how: 'read when the live connection opened',
                },
              ]
            : entries,
        );
      },
      () => undefined,
    );
  });

  // The execution log streams in: read what is new while the trade runs (and once after it ends).
  const loaded = trade !== null;
  const running = trade !== null && !TERMINAL_STATUSES.has(trade.status);
  useEffect(() => {
    if (!loaded) {
      return;
    }
    let live = true;
    let timer = 0;
    const read = () => {
      api
        .tradeEvents(tradeId, { afterSequence: lastSequence.current })
        .then(
          (answer) => {
            if (!live || answer.events.length === 0) {
              return;
            }
            lastSequence.current = answer.events[answer.events.length - 1].sequence;
            setEvents((seen) => [...seen, ...answer.events]);
            if (answer.events.some((event) => event.event_type === 'maker_fill')) {
              reloadTrade();
            }
          },
          () => undefined,
        )
        .finally(() => {
          if (live && running) {
            timer = window.setTimeout(read, LOG_POLL_MS);
          }
        });
    };
    read();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [api, tradeId, loaded, running, reloadTrade]);

  if (error && !trade) {
    return (
      <main>
        <h1>Trade</h1>
        <p className="error" role="alert">
          {error}
        </p>
        <Link to="/trades">All trades</Link>
      </main>
    );
  }
  if (!trade) {
    return (
      <main>
        <p role="status">Loading…</p>
      </main>
    );
  }
  return (
    <main className="trade-detail">
      <h1>
        Trade {trade.market} <VenueName exchange={trade.long_exchange} mode={trade.long_mode} /> /{' '}
        <VenueName exchange={trade.short_exchange} mode={trade.short_mode} />
      </h1>
      <p className="muted">
        <code>{trade.trade_id}</code>
      </p>
      <section aria-labelledby="progress-title">
        <h2 id="progress-title">Progress</h2>
        <p>
          Status:{' '}
          <span data-testid="trade-status">
            <StatusBadge status={trade.status} />
          </span>
        </p>
        <FillProgress trade={trade} />
        <p data-testid="legs">
          Long leg on <VenueName exchange={trade.long_exchange} mode={trade.long_mode} />, short leg
          on <VenueName exchange={trade.short_exchange} mode={trade.short_mode} />
        </p>
        <p>
          Target spread {trade.spread_condition} {trade.target_spread} {trade.spread_type}; maker
          leg {trade.maker_leg}; max slippage {trade.max_slippage}; rate budget {trade.rate_budget}
          /s
          {trade.hedge_rate_budget === undefined ? '' : `, hedge ${trade.hedge_rate_budget}/s`}
        </p>
        {trade.failure_reason && <p className="error">{trade.failure_reason}</p>}
        <ResidualNotice trade={trade} />
      </section>
      <div className="two-columns">
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">Status timeline</h2>
          <ol className="timeline" data-testid="timeline" aria-live="polite">
            {timeline.map((entry, index) => (
              <li key={index}>
                <StatusBadge status={entry.status} />{' '}
                <time dateTime={entry.at}>{new Date(entry.at).toLocaleTimeString()}</time>{' '}
                <span className="muted">{entry.how}</span>
              </li>
            ))}
          </ol>
        </section>
        <ManageTrade trade={trade} onChanged={reloadTrade} />
      </div>
      <TradeCostsPanel trade={trade} />
      <TradeQualityPanel trade={trade} />
      <section aria-labelledby="chart-title">
        <h2 id="chart-title">Fills</h2>
        <Suspense fallback={<p role="status">Loading the charts…</p>}>
          <TradeCharts trade={trade} events={events} running={running} />
        </Suspense>
      </section>
      <section aria-labelledby="log-title">
        <h2 id="log-title">Execution log</h2>
        <ExecutionLog events={events} />
      </section>
    </main>
  );
}
