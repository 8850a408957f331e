import {
  createSeriesMarkers,
  LineSeries,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useCallback, useEffect } from 'react';
import type { ChartPoint, FillMark, FillsModel } from './chart-model';
import { useChartTheme, type ChartTheme } from './chart-theme';
import { useChart } from './use-chart';

interface FillsSeries {
  makerBid: ISeriesApi<'Line'>;
  makerAsk: ISeriesApi<'Line'>;
  hedgeBid: ISeriesApi<'Line'>;
  hedgeAsk: ISeriesApi<'Line'>;
  makerFills: ISeriesApi<'Line'>;
  hedgeFills: ISeriesApi<'Line'>;
  makerMarks: ISeriesMarkersPluginApi<Time>;
  hedgeMarks: ISeriesMarkersPluginApi<Time>;
}

const data = (points: readonly ChartPoint[]) =>
  points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value }));

const marks = (fills: readonly FillMark[], color: string, who: string): SeriesMarker<Time>[] =>
  fills.map((fill) => ({
    time: fill.time as UTCTimestamp,
    position: 'atPriceMiddle',
    price: fill.value,
    shape: fill.side === 'buy' ? 'arrowUp' : 'arrowDown',
    color,
    text: `${who} ${fill.side} ${fill.size}`,
  }));

/** The six lines: each venue's bid (solid) and ask (dashed), and the fills as points on no line. */
function addSeries(chart: IChartApi, venues: { maker: string; hedge: string }): FillsSeries {
  const book = (title: string, lineStyle: LineStyle) =>
    chart.addSeries(LineSeries, {
      title,
      lineStyle,
      lineWidth: 1,
      lastValueVisible: false,
      crosshairMarkerVisible: false,
    });
  const fills = (title: string) =>
    chart.addSeries(LineSeries, { title, lineVisible: false, pointMarkersVisible: true });
  const makerFills = fills('maker fill');
  const hedgeFills = fills('hedge fill');
  return {
    makerBid: book(`${venues.maker} bid`, LineStyle.Solid),
    makerAsk: book(`${venues.maker} ask`, LineStyle.Dashed),
    hedgeBid: book(`${venues.hedge} bid`, LineStyle.Solid),
    hedgeAsk: book(`${venues.hedge} ask`, LineStyle.Dashed),
    makerFills,
    hedgeFills,
    makerMarks: createSeriesMarkers(makerFills, []),
    hedgeMarks: createSeriesMarkers(hedgeFills, []),
  };
}

function paint(series: FillsSeries, theme: ChartTheme): void {
  series.makerBid.applyOptions({ color: theme.makerBook });
  series.makerAsk.applyOptions({ color: theme.makerBook });
  series.hedgeBid.applyOptions({ color: theme.hedgeBook });
  series.hedgeAsk.applyOptions({ color: theme.hedgeBook });
  series.makerFills.applyOptions({ color: theme.maker });
  series.hedgeFills.applyOptions({ color: theme.hedge });
}

function fill(series: FillsSeries, model: FillsModel, theme: ChartTheme): void {
  series.makerBid.setData(data(model.makerBook.bid));
  series.makerAsk.setData(data(model.makerBook.ask));
  series.hedgeBid.setData(data(model.hedgeBook.bid));
  series.hedgeAsk.setData(data(model.hedgeBook.ask));
  series.makerFills.setData(data(model.makerFills));
  series.hedgeFills.setData(data(model.hedgeFills));
  series.makerMarks.setMarkers(marks(model.makerFills, theme.maker, 'maker'));
  series.hedgeMarks.setMarkers(marks(model.hedgeFills, theme.hedge, 'hedge'));
}

/**
 * The maker and hedge fills against both venues' books: each venue's best bid
 * and ask as the page read them, each fill a point with an arrow for its side.
 */
export function FillsChart(props: { model: FillsModel; makerVenue: string; hedgeVenue: string }) {
  const { model, makerVenue, hedgeVenue } = props;
  const theme = useChartTheme();
  const venueSeries = useCallback(
    (chart: IChartApi) => addSeries(chart, { maker: makerVenue, hedge: hedgeVenue }),
    [makerVenue, hedgeVenue],
  );
  const { container, drawn } = useChart(theme, venueSeries);

  useEffect(() => {
    if (drawn.current) {
      paint(drawn.current.series, theme);
      fill(drawn.current.series, model, theme);
      drawn.current.chart.timeScale().fitContent();
    }
  }, [drawn, venueSeries, model, theme]);

  return (
    <div
      ref={container}
      className="chart-canvas"
      data-testid="fills-chart"
      role="img"
      aria-label={`Maker fills on ${makerVenue} and hedge fills on ${hedgeVenue} against both venues' best bid and ask`}
    />
  );
}
