import type { Trade, TradeEvent } from '@sts/sdk';
import { TERMINAL_STATUSES } from '@sts/sdk';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { describeError } from '../api/api-error';
import { fieldErrorsOf, type FieldErrors } from '../api/field-errors';
import { FillChart } from '../components/fill-chart';
import { controlProps, FormField } from '../components/form-field';
import { FillProgress, StatusBadge } from '../components/trade-status';
import { useTradeEvents } from '../live/live';
import { useSignedIn } from '../session/session';

/** The execution log is read incrementally (after_sequence) this often while the trade runs. */
const LOG_POLL_MS = 1_000;

interface TimelineEntry {
  status: string;
  at: string;
  how: string;
}

const AMEND_FIELDS = ['target_size', 'target_spread', 'max_slippage'] as const;

/** One line of the execution log, in a trader's words. */
function summary(event: TradeEvent): string {
  switch (event.event_type) {
    case 'maker_fill':
      return `${event.data.side} ${event.data.size} @ ${event.data.price} on ${event.data.exchange}${event.data.fully_filled ? ' (order filled)' : ''}`;
    case 'hedge_sent':
      return `hedge ${event.data.side} ${event.data.size} sent to ${event.data.exchange}${event.data.price ? ` (limit ${event.data.price})` : ''}`;
    case 'hedge_filled':
      return `hedge ${event.data.side} ${event.data.size} @ ${event.data.price} on ${event.data.exchange}`;
    case 'hedge_outcome':
      return (
        `hedge ${event.data.result}: ${event.data.filled_size} of ${event.data.requested_size}` +
        (event.data.spread_achieved === null ? '' : `, spread ${event.data.spread_achieved}`) +
        (event.data.slippage_bps === null ? '' : `, slippage ${event.data.slippage_bps} bps`)
      );
    case 'hedge_timeout':
      return `hedge on ${event.data.exchange} unconfirmed after ${event.data.waited_ms} ms, ${event.data.unhedged_size} unhedged`;
    case 'chunk_started':
      return `execution started toward ${event.data.target_size} (${event.data.size_type})`;
    case 'chunk_completed':
      return `execution ended (${event.data.reason}) at ${event.data.filled_size}`;
    case 'recovery_completed':
      return `recovered: ${event.data.open_orders_canceled} orders canceled, ${event.data.fills_reconciled} fills reconciled`;
    case 'fast_move_guard':
      return `fast-move guard ${event.data.action}: move ${event.data.move} bps (threshold ${event.data.threshold})`;
    default:
      return '';
  }
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
    api.trade(tradeId).then(
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
    api.trade(tradeId).then(
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
        .tradeEvents(tradeId, lastSequence.current)
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
        Trade {trade.market} {trade.long_exchange} / {trade.short_exchange}
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
        <p>
          Target spread {trade.spread_condition} {trade.target_spread} {trade.spread_type}; maker
          leg {trade.maker_leg}; max slippage {trade.max_slippage}; rate budget {trade.rate_budget}
          /s
          {trade.hedge_rate_budget === undefined ? '' : `, hedge ${trade.hedge_rate_budget}/s`}
        </p>
        {trade.failure_reason && <p className="error">{trade.failure_reason}</p>}
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
      <section aria-labelledby="chart-title">
        <h2 id="chart-title">Fills</h2>
        <FillChart
          events={events}
          targetSpread={trade.target_spread}
          condition={trade.spread_condition}
          spreadType={trade.spread_type}
        />
      </section>
      <section aria-labelledby="log-title">
        <h2 id="log-title">Execution log</h2>
        {events.length === 0 ? (
          <p className="muted">Nothing recorded yet.</p>
        ) : (
          <table data-testid="execution-log">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Time</th>
                <th scope="col">Entry</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.sequence}>
                  <td>{event.sequence}</td>
                  <td>
                    <time dateTime={event.created_at}>
                      {new Date(event.created_at).toLocaleTimeString()}
                    </time>
                  </td>
                  <td>{event.event_type}</td>
                  <td>{summary(event)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}

/** Amend (size, spread, slippage) and cancel. */
function ManageTrade({ trade, onChanged }: { trade: Trade; onChanged: () => void }) {
  const { api } = useSignedIn();
  const [amendment, setAmendment] = useState({
    target_size: '',
    target_spread: '',
    max_slippage: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({ fields: {}, general: [] });
  const [result, setResult] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ended = TERMINAL_STATUSES.has(trade.status);

  const amend = (event: FormEvent) => {
    event.preventDefault();
    const body = Object.fromEntries(
      Object.entries(amendment).filter(([, value]) => value.trim() !== ''),
    );
    setBusy(true);
    setErrors({ fields: {}, general: [] });
    setResult(null);
    api.amendTrade(trade.trade_id, body).then(
      (answer) => {
        setBusy(false);
        setResult(
          answer.body.status === 'amendment_sent'
            ? 'Amendment sent: it applies on the next quote cycle.'
            : `Amendment saved: ${answer.body.warning}`,
        );
        setAmendment({ target_size: '', target_spread: '', max_slippage: '' });
        onChanged();
      },
      (failure: unknown) => {
        setBusy(false);
        setErrors(fieldErrorsOf(failure, AMEND_FIELDS));
      },
    );
  };

  const cancel = () => {
    setBusy(true);
    setResult(null);
    api.cancelTrade(trade.trade_id).then(
      (answer) => {
        setBusy(false);
        setResult(
          answer.body.status === 'canceled'
            ? 'Canceled.'
            : 'Cancel sent: open orders are being canceled.',
        );
        onChanged();
      },
      (failure: unknown) => {
        setBusy(false);
        setErrors({ fields: {}, general: [describeError(failure)] });
      },
    );
  };

  const input = (field: (typeof AMEND_FIELDS)[number], label: string, hint: string) => (
    <FormField name={`amend_${field}`} label={label} hint={hint} error={errors.fields[field]}>
      <input
        {...controlProps(`amend_${field}`, errors.fields[field], hint)}
        value={amendment[field]}
        inputMode="decimal"
        onChange={(event) =>
          setAmendment((current) => ({ ...current, [field]: event.target.value }))
        }
        disabled={ended}
      />
    </FormField>
  );

  return (
    <section aria-labelledby="manage-title">
      <h2 id="manage-title">Amend or cancel</h2>
      {ended ? (
        <p className="muted">This trade has ended.</p>
      ) : (
        <form onSubmit={amend} noValidate>
          {input(
            'target_size',
            'New target size',
            `now ${trade.target_size}; at least the filled ${trade.filled_size}`,
          )}
          {input(
            'target_spread',
            'New target spread',
            `now ${trade.target_spread} ${trade.spread_type}`,
          )}
          {input('max_slippage', 'New max slippage', `now ${trade.max_slippage}`)}
          <button type="submit" disabled={busy}>
            Amend
          </button>{' '}
          <button type="button" className="danger" onClick={cancel} disabled={busy}>
            Cancel trade
          </button>
        </form>
      )}
      {errors.general.map((text) => (
        <p key={text} className="error" role="alert">
          {text}
        </p>
      ))}
      {result && (
        <p role="status" data-testid="manage-result">
          {result}
        </p>
      )}
    </section>
  );
}
