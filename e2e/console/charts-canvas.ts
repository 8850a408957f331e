import type { Page } from 'playwright-core';

/** An opaque colour as [red, green, blue], 0 to 255. */
export type Rgb = [number, number, number];

/** `#1f5fbf` or `rgb(31, 95, 191)`, as CSS gives them back. */
export function rgbOf(css: string): Rgb {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(css.trim());
  if (hex) {
    return [parseInt(hex[1], 16), parseInt(hex[2], 16), parseInt(hex[3], 16)];
  }
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css.trim());
  if (!rgb) {
    throw new Error(`not a colour: ${css}`);
  }
  return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
}

/** Relative luminance, 0 (black) to 1 (white), enough to tell a dark theme from a light one. */
export function luminance([red, green, blue]: Rgb): number {
  return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255;
}

/** A CSS custom property of the page's root, as the stylesheet sets it now. */
export async function cssVariable(page: Page, name: string): Promise<string> {
  return String(
    await page.evaluate(
      `getComputedStyle(document.documentElement).getPropertyValue(${JSON.stringify(name)}).trim()`,
    ),
  );
}

/** The page's own background colour (the root element's). */
export async function pageBackground(page: Page): Promise<Rgb> {
  return rgbOf(
    String(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')),
  );
}

/**
 * How many pixels of the chart's canvases are exactly this colour: the
 * library draws to canvas, so a series is seen by its colour's pixels (a
 * fill point's centre is its series' colour, unblended).
 */
export async function pixelsOfColour(page: Page, testId: string, [r, g, b]: Rgb): Promise<number> {
  return Number(
    await page.evaluate(`(() => {
      let count = 0;
      for (const canvas of document.querySelectorAll('[data-testid="${testId}"] canvas')) {
        if (!canvas.width || !canvas.height) continue;
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i] === ${r} && data[i + 1] === ${g} && data[i + 2] === ${b} && data[i + 3] === 255) count++;
        }
      }
      return count;
    })()`),
  );
}

/**
 * The colour most of the chart's largest painted canvas is: its background
 * (the library layers a transparent canvas over each painted one).
 */
export async function chartBackground(page: Page, testId: string): Promise<Rgb> {
  const colour = await page.evaluate(`(() => {
    const canvases = [...document.querySelectorAll('[data-testid="${testId}"] canvas')]
      .filter((canvas) => canvas.width && canvas.height)
      .sort((a, b) => b.width * b.height - a.width * a.height);
    for (const canvas of canvases) {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      const counts = new Map();
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] !== 255) continue;
        const key = data[i] + ',' + data[i + 1] + ',' + data[i + 2];
        counts.set(key, (counts.get(key) || 0) + 1);
      }
      if (counts.size > 0) return [...counts].sort((a, b) => b[1] - a[1])[0][0];
    }
    return '';
  })()`);
  if (!colour) {
    throw new Error(`nothing painted in ${testId}`);
  }
  return String(colour).split(',').map(Number) as Rgb;
}
