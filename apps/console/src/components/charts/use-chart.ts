import { ColorType, createChart, type IChartApi } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import type { ChartTheme } from './chart-theme';

const clock = (seconds: number) =>
  new Date(seconds * 1000).toLocaleTimeString([], { hour12: false });

/** A chart and the series it was given, as the drawing effects of a component find them. */
export interface DrawnChart<Series> {
  chart: IChartApi;
  series: Series;
}

/**
 * A lightweight-charts chart in the returned container, sized with it, with
 * the series `addSeries` puts on it (made again only when `addSeries`
 * changes), in the page's colours: applied again when the system's colour
 * scheme changes. The component draws its data into `drawn.current` in its
 * own effects, which run after this hook's.
 */
export function useChart<Series>(theme: ChartTheme, addSeries: (chart: IChartApi) => Series) {
  const container = useRef<HTMLDivElement>(null);
  const drawn = useRef<DrawnChart<Series> | null>(null);

  useEffect(() => {
    if (!container.current) {
      return;
    }
    const chart = createChart(container.current, {
      autoSize: true,
      // Fills land seconds apart: the axis names the second, the crosshair the time.
      timeScale: { timeVisible: true, secondsVisible: true },
      localization: { timeFormatter: clock },
    });
    drawn.current = { chart, series: addSeries(chart) };
    return () => {
      drawn.current = null;
      chart.remove();
    };
  }, [addSeries]);

  useEffect(() => {
    drawn.current?.chart.applyOptions({
      layout: {
        background: { type: ColorType.Solid, color: theme.background },
        textColor: theme.text,
      },
      grid: { vertLines: { color: theme.grid }, horzLines: { color: theme.grid } },
      rightPriceScale: { borderColor: theme.grid },
      timeScale: { borderColor: theme.grid },
    });
  }, [theme, addSeries]);

  return { container, drawn };
}
