import { useSyncExternalStore } from 'react';

/** The chart colours, read from the page's CSS variables so the charts follow the page's theme. */
export interface ChartTheme {
  background: string;
  text: string;
  grid: string;
  maker: string;
  hedge: string;
  makerBook: string;
  hedgeBook: string;
  met: string;
  missed: string;
  target: string;
  /** One colour per series where a chart draws a line per group (the quality page's venues). */
  series: string[];
}

const DARK = '(prefers-color-scheme: dark)';
const SERIES = [1, 2, 3, 4, 5, 6].map((index) => `--chart-series-${index}`);

const variable = (style: CSSStyleDeclaration, name: string) => style.getPropertyValue(name).trim();

function readTheme(): ChartTheme {
  const style = getComputedStyle(document.documentElement);
  return {
    background: variable(style, '--surface'),
    text: variable(style, '--text-muted'),
    grid: variable(style, '--chart-grid'),
    maker: variable(style, '--chart-maker'),
    hedge: variable(style, '--chart-hedge'),
    makerBook: variable(style, '--chart-maker-book'),
    hedgeBook: variable(style, '--chart-hedge-book'),
    met: variable(style, '--good'),
    missed: variable(style, '--bad'),
    target: variable(style, '--text'),
    series: SERIES.map((name) => variable(style, name)),
  };
}

// The CSS changes its variables with the system setting; the charts are told when it flips.
let cached: { dark: boolean; theme: ChartTheme } | null = null;

function snapshot(): ChartTheme {
  const dark = window.matchMedia(DARK).matches;
  if (cached?.dark !== dark) {
    cached = { dark, theme: readTheme() };
  }
  return cached.theme;
}

function subscribe(notify: () => void): () => void {
  const query = window.matchMedia(DARK);
  query.addEventListener('change', notify);
  return () => query.removeEventListener('change', notify);
}

/** The chart colours of the system's colour scheme, changing with it. */
export function useChartTheme(): ChartTheme {
  return useSyncExternalStore(subscribe, snapshot);
}
