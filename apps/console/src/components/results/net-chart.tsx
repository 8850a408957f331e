import {
  BaselineSeries,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useCallback, useEffect } from 'react';
import { useChartTheme } from '../charts/chart-theme';
import { useChart } from '../charts/use-chart';
import type { NetPoint } from './results-model';

/** A chart time (the start of a UTC day) as its UTC date: the days are the API's, not the browser's. */
const utcDay = (time: Time) => new Date(Number(time) * 1000).toISOString().slice(0, 10);

/** The cumulative net as one line around zero: above it in the good colour, below in the bad one. */
function addSeries(chart: IChartApi): ISeriesApi<'Baseline'> {
  chart.applyOptions({
    timeScale: { timeVisible: false, secondsVisible: false, fixLeftEdge: true, fixRightEdge: true },
    localization: { timeFormatter: utcDay },
  });
  const series = chart.addSeries(BaselineSeries, {
    title: 'net',
    baseValue: { type: 'price', price: 0 },
    lineWidth: 2,
    pointMarkersVisible: true,
    pointMarkersRadius: 3,
    topFillColor1: 'transparent',
    topFillColor2: 'transparent',
    bottomFillColor1: 'transparent',
    bottomFillColor2: 'transparent',
    priceLineVisible: false,
    priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
  });
  series.createPriceLine({
    price: 0,
    lineStyle: LineStyle.Dashed,
    lineWidth: 1,
    axisLabelVisible: false,
    title: '',
  });
  return series;
}

/**
 * The net (realised spread less fees and funding) summed day by day over the
 * window (issue 58): a rising line is money made. The figures as text are in
 * the page's legend and table.
 */
export function NetChart(props: { points: readonly NetPoint[]; currency: string }) {
  const { points, currency } = props;
  const theme = useChartTheme();
  const netSeries = useCallback((chart: IChartApi) => addSeries(chart), []);
  const { container, drawn } = useChart(theme, netSeries);

  useEffect(() => {
    if (!drawn.current) {
      return;
    }
    const { chart, series } = drawn.current;
    series.applyOptions({ topLineColor: theme.met, bottomLineColor: theme.missed });
    series.priceLines()[0]?.applyOptions({ color: theme.text });
    series.setData(
      points.map((point) => ({ time: point.time as UTCTimestamp, value: point.value })),
    );
    chart.timeScale().fitContent();
  }, [drawn, netSeries, points, theme]);

  return (
    <div
      ref={container}
      className="chart-canvas"
      data-testid="net-chart"
      role="img"
      aria-label={`Net in ${currency} summed day by day over the window, above zero in the good colour`}
    />
  );
}
