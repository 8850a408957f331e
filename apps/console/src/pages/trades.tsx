import type { Trade, TradeStatus } from '@sts/sdk';
import { TERMINAL_STATUSES } from '@sts/sdk';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { describeError } from '../api/api-error';
import { FillProgress, ResidualFlag, StatusBadge } from '../components/trade-status';
import { VenueName } from '../components/venue-name';
import { useLiveSubscribed, useTradeEvents } from '../live/live';
import { useSignedIn } from '../session/session';
import { StopAllTrades } from './stop-all-trades';

/** Fills are not pushed (only status changes are): live trades' sizes are re-read this often. */
const LIVE_REFRESH_MS = 2_000;

const upsert = (list: Trade[] | null, fresh: Trade): Trade[] | null => {
  if (!list) {
    return list;
  }
  return list.some((trade) => trade.trade_id === fresh.trade_id)
    ? list.map((trade) => (trade.trade_id === fresh.trade_id ? fresh : trade))
    : [fresh, ...list];
};

/** The caller's 50 most recent trades, kept live by the notifier's lifecycle events. */
export function TradesPage() {
  const { api } = useSignedIn();
  const [trades, setTrades] = useState<Trade[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(() => {
    api.listTrades().then(
      (list) => {
        setTrades(list);
        setError(null);
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  }, [api]);

  useEffect(reload, [reload]);
  // Events are not replayed: once the socket listens (again), read what it may have missed.
  useLiveSubscribed(reload);

  useTradeEvents((event) => {
    setTrades(
      (list) =>
        list?.map((trade) =>
          trade.trade_id === event.trade_id
            ? { ...trade, status: event.status as TradeStatus }
            : trade,
        ) ?? list,
    );
    // The event carries the status; sizes and times come with the trade (a new one joins the list).
    api.getTrade(event.trade_id).then(
      (fresh) => setTrades((list) => upsert(list, fresh)),
      () => undefined,
    );
  });

  const anyLive = trades?.some((trade) => !TERMINAL_STATUSES.has(trade.status)) ?? false;
  useEffect(() => {
    if (!anyLive) {
      return;
    }
    const timer = window.setInterval(reload, LIVE_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [anyLive, reload]);

  return (
    <main>
      <h1>Trades</h1>
      <div className="page-actions">
        <Link to="/trades/new">New trade</Link>
        <StopAllTrades onStopped={reload} />
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {trades === null ? (
        <p role="status">Loading…</p>
      ) : trades.length === 0 ? (
        <p>No trades yet.</p>
      ) : (
        <table data-testid="trades-table">
          <caption className="visually-hidden">Your most recent trades</caption>
          <thead>
            <tr>
              <th scope="col">Trade</th>
              <th scope="col">Market</th>
              <th scope="col">Long</th>
              <th scope="col">Short</th>
              <th scope="col">Maker</th>
              <th scope="col">Target spread</th>
              <th scope="col">Status</th>
              <th scope="col">Filled</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {trades.map((trade) => (
              <tr key={trade.trade_id} data-trade-id={trade.trade_id}>
                <td>
                  <Link to={`/trades/${trade.trade_id}`}>{trade.trade_id.slice(0, 8)}</Link>
                </td>
                <td>{trade.market}</td>
                <td>
                  <VenueName exchange={trade.long_exchange} mode={trade.long_mode} />
                </td>
                <td>
                  <VenueName exchange={trade.short_exchange} mode={trade.short_mode} />
                </td>
                <td>{trade.maker_leg}</td>
                <td>
                  {trade.spread_condition} {trade.target_spread} {trade.spread_type}
                </td>
                <td>
                  <StatusBadge status={trade.status} />
                </td>
                <td>
                  <FillProgress trade={trade} />
                  <ResidualFlag trade={trade} />
                </td>
                <td>{new Date(trade.created_at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
