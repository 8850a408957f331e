import {
  LineSeries,
  LineStyle,
  type AutoscaleInfo,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useCallback, useEffect, useRef } from 'react';
import type { RealisedPoint } from './chart-model';
import { useChartTheme } from './chart-theme';
import { useChart } from './use-chart';

interface SpreadSeries {
  realised: ISeriesApi<'Line'>;
  target: IPriceLine;
}

/** The realised spreads as points on a thin line, and the target as a dashed price line. */
function addSeries(chart: IChartApi, spreadType: string, target: () => number): SpreadSeries {
  const realised = chart.addSeries(LineSeries, {
    title: `realised (${spreadType})`,
    lineWidth: 1,
    pointMarkersVisible: true,
    pointMarkersRadius: 4,
    // The target stays in view, however far the pairs landed from it.
    autoscaleInfoProvider: (base: () => AutoscaleInfo | null): AutoscaleInfo => {
      const range = base()?.priceRange;
      const price = target();
      return {
        priceRange: {
          minValue: Math.min(range?.minValue ?? price, price),
          maxValue: Math.max(range?.maxValue ?? price, price),
        },
      };
    },
  });
  const targetLine = realised.createPriceLine({
    price: target(),
    lineStyle: LineStyle.Dashed,
    lineWidth: 1,
    axisLabelVisible: true,
    title: 'target',
  });
  return { realised, target: targetLine };
}

/**
 * Each hedged pair's realised spread over time against the trade's target (a
 * dashed line, moved by an amend): a point in the good colour where the pair
 * met the target, in the bad one where it did not.
 */
export function RealisedSpreadChart(props: {
  points: readonly RealisedPoint[];
  target: string;
  spreadType: string;
}) {
  const { points, target, spreadType } = props;
  const theme = useChartTheme();
  const targetNow = useRef(Number(target));
  const spreadSeries = useCallback(
    (chart: IChartApi) => addSeries(chart, spreadType, () => targetNow.current),
    [spreadType],
  );
  const { container, drawn } = useChart(theme, spreadSeries);

  useEffect(() => {
    targetNow.current = Number(target);
    if (!drawn.current) {
      return;
    }
    const { chart, series } = drawn.current;
    series.realised.applyOptions({ color: theme.text });
    series.target.applyOptions({ color: theme.target, price: Number(target) });
    series.realised.setData(
      points.map((p) => ({
        time: p.time as UTCTimestamp,
        value: p.value,
        color: p.metTarget ? theme.met : theme.missed,
      })),
    );
    chart.timeScale().fitContent();
  }, [drawn, spreadSeries, points, target, theme]);

  return (
    <div
      ref={container}
      className="chart-canvas chart-canvas-short"
      data-testid="realised-spread-chart"
      role="img"
      aria-label={`Realised spread per hedged pair against the target of ${target} ${spreadType}`}
    />
  );
}
