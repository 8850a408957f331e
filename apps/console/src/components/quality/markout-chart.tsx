import {
  LineSeries,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useCallback, useEffect } from 'react';
import { useChartTheme } from '../charts/chart-theme';
import { useChart } from '../charts/use-chart';
import type { MarkoutCurve } from './quality-model';

/** The horizon is drawn where a time would be: 1, 10 and 60 "seconds" on the library's time axis. */
const horizonText = (time: Time) => `${String(time)} s`;

/** A line per group, in the group's order, and a dashed zero line (above it: good for the trader). */
function addSeries(chart: IChartApi, groups: readonly string[]): Array<ISeriesApi<'Line'>> {
  chart.applyOptions({
    timeScale: {
      timeVisible: false,
      tickMarkFormatter: horizonText,
      fixLeftEdge: true,
      fixRightEdge: true,
    },
    localization: { timeFormatter: (time: Time) => `${horizonText(time)} after the fill` },
  });
  return groups.map((group, index) => {
    const series = chart.addSeries(LineSeries, {
      title: group,
      lineWidth: 2,
      pointMarkersVisible: true,
      pointMarkersRadius: 4,
      // The group's name and last figure stay on the axis; no line across the whole chart.
      priceLineVisible: false,
      priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
    });
    if (index === 0) {
      series.createPriceLine({
        price: 0,
        lineStyle: LineStyle.Dashed,
        lineWidth: 1,
        axisLabelVisible: false,
        title: '',
      });
    }
    return series;
  });
}

/**
 * Markout curves (issue 60): per group, its mean or median markout in bps at
 * 1, 10 and 60 s after the maker fills, a line in the group's colour. A curve
 * that falls below zero is a venue whose resting orders are picked off.
 */
export function MarkoutChart(props: { curves: readonly MarkoutCurve[]; statistic: string }) {
  const { curves, statistic } = props;
  const theme = useChartTheme();
  const groupsKey = curves.map((curve) => curve.group).join('\n');
  const curveSeries = useCallback(
    (chart: IChartApi) => addSeries(chart, groupsKey === '' ? [] : groupsKey.split('\n')),
    [groupsKey],
  );
  const { container, drawn } = useChart(theme, curveSeries);

  useEffect(() => {
    if (!drawn.current) {
      return;
    }
    const { chart, series } = drawn.current;
    series.forEach((line, index) => {
      const colour = theme.series[index % theme.series.length];
      line.applyOptions({ color: colour });
      line.setData(
        (curves[index]?.points ?? []).map((point) =>
          point.bps === null
            ? { time: point.horizon as UTCTimestamp }
            : { time: point.horizon as UTCTimestamp, value: point.bps },
        ),
      );
    });
    series[0]?.priceLines()[0]?.applyOptions({ color: theme.text });
    chart.timeScale().fitContent();
  }, [drawn, curveSeries, curves, theme]);

  return (
    <div
      ref={container}
      className="chart-canvas"
      data-testid="markout-chart"
      role="img"
      aria-label={`${statistic} markout in bps at 1, 10 and 60 s after the maker fills, one line per group`}
    />
  );
}
