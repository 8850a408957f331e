import type { Trade, TradeQuality } from '@sts/sdk';
import { TERMINAL_STATUSES } from '@sts/sdk';
import { useEffect, useState } from 'react';
import { describeError } from '../../api/api-error';
import { useSignedIn } from '../../session/session';
import {
  arrivalSlippageText,
  durationText,
  HORIZONS,
  NONE,
  quotingTexts,
  shown,
  type Quoting,
} from './quality-model';

type FillQuality = TradeQuality['fills'][number];

/** Read again this often while a markout may still come (the trade runs, or a fill is under 60 s old). */
const REFRESH_MS = 3_000;
/** The worker samples 60 s after a fill; a sample it logs a little late is still read. */
const LAST_SAMPLE_MS = 75_000;

/** Whether the answer may still change: the trade runs, or a fill may yet be marked out. */
function stillComing(quality: TradeQuality, now: number): boolean {
  if (!TERMINAL_STATUSES.has(quality.status)) {
    return true;
  }
  return quality.fills.some((fill) => Date.parse(fill.timestamp) + LAST_SAMPLE_MS > now);
}

/**
 * "Execution quality" of a trade (issue 60), as GET /trades/{id}/quality
 * answers it: per maker fill its markouts at 1, 10 and 60 s and its hedges'
 * slippage against the decision and against the hedge venue's arrival mid
 * (bps, positive when good for the trader); the trade's realised spread
 * against its target and against the spread at its start (what a maker order
 * at the touch would have captured as the trade went active), its times and
 * its quoting (time quoted and its share of the trade's life, orders, fills
 * per quote-hour, re-quotes and cancels per fill); the mean markout per
 * horizon. A figure the API answers null (not sampled, nothing filled, no
 * fresh book at the start) is a dash, never 0; the console does no
 * arithmetic on the figures.
 */
export function TradeQualityPanel({ trade }: { trade: Trade }) {
  const { api } = useSignedIn();
  const [quality, setQuality] = useState<TradeQuality | null>(null);
  const [error, setError] = useState<string | null>(null);
  const tradeId = trade.trade_id;
  // A new fill or a status change reads the answer again at once.
  const changed = `${trade.filled_size} ${trade.status}`;

  useEffect(() => {
    let live = true;
    let timer = 0;
    const read = () => {
      api.tradeQuality(tradeId).then(
        (answer) => {
          if (!live) {
            return;
          }
          setQuality(answer);
          setError(null);
          if (stillComing(answer, Date.now())) {
            timer = window.setTimeout(read, REFRESH_MS);
          }
        },
        (failure: unknown) => {
          if (live) {
            setError(describeError(failure));
            timer = window.setTimeout(read, REFRESH_MS);
          }
        },
      );
    };
    read();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [api, tradeId, changed]);

  return (
    <section aria-labelledby="quality-title" className="trade-quality" data-testid="trade-quality">
      <h2 id="quality-title">Execution quality</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {quality === null ? (
        !error && <p role="status">Loading…</p>
      ) : (
        <QualityFigures quality={quality} />
      )}
    </section>
  );
}

function QualityFigures({ quality }: { quality: TradeQuality }) {
  const unit = quality.spread_type;
  return (
    <>
      <dl className="costs-results">
        <dt>Realised spread against the target</dt>
        <dd>
          <span data-testid="quality-realised-vs-target">{shown(quality.realised_vs_target)}</span>{' '}
          <span className="muted">
            {unit} (realised{' '}
            <span data-testid="quality-realised-spread">{shown(quality.realised_spread)}</span>,
            target {quality.target_spread}; positive: more spread than the target)
          </span>
        </dd>
        <dt>Realised spread against the start</dt>
        <dd>
          <span data-testid="quality-realised-vs-start">{shown(quality.realised_vs_start)}</span>{' '}
          <span className="muted">
            {unit} (spread at the start{' '}
            <span data-testid="quality-spread-at-start">{shown(quality.spread_at_start)}</span>:
            what a maker order at the touch would have captured as the trade went active; positive:
            waiting for the target won)
          </span>
        </dd>
        <dt>First maker fill</dt>
        <dd>
          <span data-testid="quality-time-to-first-fill">
            {durationText(quality.time_to_first_fill_ms)}
          </span>{' '}
          <span className="muted">after the trade was created</span>
        </dd>
        <dt>Ended</dt>
        <dd>
          <span data-testid="quality-time-to-end">{durationText(quality.time_to_end_ms)}</span>{' '}
          <span className="muted">after the trade was created</span>
        </dd>
        <QuotingTerms quoting={quality.quoting} quotedShare={quality.quoted_share} />
        <dt>Maker fills</dt>
        <dd data-testid="quality-fills-count">{quality.fills_count}</dd>
      </dl>
      <table data-testid="quality-fills">
        <caption className="muted">
          Markouts: the maker venue&apos;s mid that many seconds after the fill against its price;
          hedge slippage: against the hedge venue&apos;s price when the maker filled; arrival
          slippage: against the hedge venue&apos;s mid when the hedge&apos;s first order went. In
          bps, positive when good for the trader; {NONE}: not sampled, or nothing filled.
        </caption>
        <thead>
          <tr>
            <th scope="col">Fill</th>
            <th scope="col">Venue</th>
            <th scope="col">Side</th>
            <th scope="col">Price</th>
            <th scope="col">Size</th>
            {HORIZONS.map((horizon) => (
              <th scope="col" key={horizon}>
                Markout {horizon} s
              </th>
            ))}
            <th scope="col">Hedge slippage</th>
            <th scope="col">Arrival slippage</th>
          </tr>
        </thead>
        <tbody>
          {quality.fills.length === 0 && (
            <tr>
              <td colSpan={7 + HORIZONS.length}>No maker fill yet.</td>
            </tr>
          )}
          {quality.fills.map((fill) => (
            <FillRow key={fill.fill_id} fill={fill} />
          ))}
        </tbody>
        <tfoot>
          <tr data-testid="quality-means">
            <th scope="row" colSpan={5}>
              Mean over the fills sampled
            </th>
            {HORIZONS.map((horizon) => (
              <td key={horizon} data-testid={`quality-mean-${horizon}`}>
                {shown(quality.mean_markout_bps[horizon])}
              </td>
            ))}
            <td colSpan={2} />
          </tr>
        </tfoot>
      </table>
    </>
  );
}

function FillRow({ fill }: { fill: FillQuality }) {
  return (
    <tr data-testid="quality-fill" data-fill-id={fill.fill_id}>
      <th scope="row">
        <time dateTime={fill.timestamp}>{new Date(fill.timestamp).toLocaleTimeString()}</time>
      </th>
      <td>{fill.exchange}</td>
      <td>{fill.side}</td>
      <td>{fill.price}</td>
      <td>{fill.size}</td>
      {HORIZONS.map((horizon) => (
        <td
          key={horizon}
          data-testid={`quality-markout-${horizon}`}
          title={
            fill.markout_mid[horizon] === null ? 'not sampled' : `mid ${fill.markout_mid[horizon]}`
          }
        >
          {shown(fill.markout_bps[horizon])}
        </td>
      ))}
      <td data-testid="quality-hedge-slippage">
        {fill.hedges.length === 0
          ? NONE
          : fill.hedges
              .map((hedge) => `${shown(hedge.slippage_bps)} (${hedge.result} ${hedge.filled_size})`)
              .join(', ')}
      </td>
      <td
        data-testid="quality-arrival-slippage"
        title={fill.hedges
          .map((hedge) =>
            hedge.arrival_mid === null ? 'no arrival mid' : `arrival mid ${hedge.arrival_mid}`,
          )
          .join(', ')}
      >
        {arrivalSlippageText(fill.hedges)}
      </td>
    </tr>
  );
}

/**
 * The trade's quoting, as terms of the panel's description list: how long a
 * maker order was out and its share of the trade's life (a dash while it
 * runs), the orders sent, and the fills against them.
 */
function QuotingTerms({ quoting, quotedShare }: { quoting: Quoting; quotedShare: string | null }) {
  const texts = quotingTexts(quoting);
  const figure = (field: keyof Quoting) => (
    <span data-testid={`quality-quoting-${field}`}>{texts[field]}</span>
  );
  return (
    <>
      <dt>Time quoted</dt>
      <dd>
        {figure('quoted_ms')}{' '}
        <span className="muted">
          a maker order was out; share of the trade&apos;s life{' '}
          <span data-testid="quality-quoted-share">{shown(quotedShare)}</span>
        </span>
      </dd>
      <dt>Maker orders</dt>
      <dd>
        {figure('orders_placed')} placed, {figure('orders_replaced')} replaced, {figure('cancels')}{' '}
        canceled <span className="muted">({figure('requotes')} re-quotes)</span>
      </dd>
      <dt>Fill rate</dt>
      <dd>
        {figure('fills_per_quote_hour')} fills per quote-hour; {figure('requotes_per_fill')}{' '}
        re-quotes and {figure('cancels_per_fill')} cancels per fill
      </dd>
    </>
  );
}
