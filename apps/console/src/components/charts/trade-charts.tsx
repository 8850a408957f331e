import type { Trade, TradeEvent } from '@sts/sdk';
import { useMemo } from 'react';
import { fillsModel, realisedSpreads, type FillMark } from './chart-model';
import { FillsChart } from './fills-chart';
import { RealisedSpreadChart } from './realised-spread-chart';
import { useBookHistory } from './use-book-history';

const lastFill = (fills: readonly FillMark[]) => {
  const last = fills.at(-1);
  return last ? `${last.price} (${last.side} ${last.size})` : 'none yet';
};

/**
 * The trade's two charts, each with a legend in text that carries the log's
 * own figures (the canvas is for the eye; the legend and the execution log
 * are for reading and for screen readers).
 */
export function TradeCharts(props: {
  trade: Trade;
  events: readonly TradeEvent[];
  running: boolean;
}) {
  const { trade, events, running } = props;
  const books = useBookHistory(trade, running);
  const fills = useMemo(() => fillsModel(events, books, trade), [events, books, trade]);
  const realised = useMemo(() => realisedSpreads(events, trade), [events, trade]);
  const [makerVenue, hedgeVenue] =
    trade.maker_leg === 'long'
      ? [trade.long_exchange, trade.short_exchange]
      : [trade.short_exchange, trade.long_exchange];
  const met = realised.filter((point) => point.metTarget).length;

  return (
    <>
      <figure className="chart" aria-labelledby="fills-chart-caption">
        <figcaption id="fills-chart-caption">
          <strong>Fills against both books</strong>
          <dl className="chart-legend">
            <dt className="legend-maker">Maker fills on {makerVenue}</dt>
            <dd data-testid="legend-maker-fills">
              {fills.makerFills.length}, last {lastFill(fills.makerFills)}
            </dd>
            <dt className="legend-hedge">Hedge fills on {hedgeVenue}</dt>
            <dd data-testid="legend-hedge-fills">
              {fills.hedgeFills.length}, last {lastFill(fills.hedgeFills)}
            </dd>
            <dt>Books</dt>
            <dd data-testid="legend-books">
              best bid (solid) and ask (dashed) of each venue, {books.length} readings taken while
              this page watched the running trade
            </dd>
          </dl>
        </figcaption>
        <FillsChart model={fills} makerVenue={makerVenue} hedgeVenue={hedgeVenue} />
      </figure>
      <figure className="chart" aria-labelledby="spread-chart-caption">
        <figcaption id="spread-chart-caption">
          <strong>Realised spread against the target ({trade.spread_type})</strong>
          <dl className="chart-legend">
            <dt>Target</dt>
            <dd data-testid="legend-target">
              {trade.spread_condition} {trade.target_spread}
            </dd>
            <dt>Hedged pairs</dt>
            <dd data-testid="legend-realised">
              {realised.length === 0
                ? 'none yet'
                : `${realised.length}, last ${realised.at(-1)?.spread}, ${met} met the target`}
            </dd>
          </dl>
        </figcaption>
        <RealisedSpreadChart
          points={realised}
          target={trade.target_spread}
          spreadType={trade.spread_type}
        />
      </figure>
    </>
  );
}
