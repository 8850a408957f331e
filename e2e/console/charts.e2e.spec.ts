import { join, resolve } from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { eventually, type Trader } from '@sts/app-worker-testing';
import {
  chartBackground,
  cssVariable,
  luminance,
  pageBackground,
  pixelsOfColour,
  rgbOf,
} from './charts-canvas';
import { ConsoleBrowser, ConsoleFleet, sessionApi, signInAndLinkPaper } from './console-fleet';

jest.setTimeout(60_000);

/**
 * Issue 34: the trade page's charts, drawn by TradingView's lightweight-charts
 * (to canvas), and the console's dark theme. A trade on paper venues is filled
 * in two parts while its page is open: the fills chart shows both venues'
 * books and each fill in its series' colour, the realised spread chart each
 * hedged pair against the target, and their legends carry the execution
 * log's own figures. With the system's colour scheme emulated dark, the page
 * and both charts turn dark, and back. Any console error fails the step.
 * UPDATE_CONSOLE_SCREENSHOTS=1 writes trade-detail-dark.png into apps/console/docs/.
 */
const SCREENSHOTS = process.env['UPDATE_CONSOLE_SCREENSHOTS']
  ? resolve(__dirname, '../../apps/console/docs')
  : undefined;

interface LogEntry {
  sequence: number;
  event_type: string;
  data: Record<string, string | null>;
}

describe('trade charts and the dark theme in a browser', () => {
  const fleet = new ConsoleFleet();
  let browser: ConsoleBrowser;
  let page: ConsoleBrowser['page'];
  let tradeId: string;

  /** The REST API with the console's own session token. */
  const api = (method: string, path: string, body?: unknown) =>
    sessionApi(page, fleet.baseUrl)(method, path, body);
  const wallet = () => browser.accounts[0].address.toLowerCase();
  const trader = (): Trader => ({ userId: '', wallet: wallet(), headers: {}, credentials: {} });
  const logOf = async (): Promise<LogEntry[]> =>
    (await api('GET', `/trades/${tradeId}/events`)).body.events as LogEntry[];
  const legend = (testId: string) => page.getByTestId(testId).innerText();
  const colour = async (variable: string) => rgbOf(await cssVariable(page, variable));
  const statusIs = (status: string) =>
    page
      .getByTestId('trade-status')
      .getByText(status, { exact: true })
      .waitFor({ timeout: 20_000 });
  const until = (what: string, check: () => Promise<boolean>, timeoutMs = 10_000) =>
    eventually(async () => (await check()) || undefined, what, { timeoutMs, intervalMs: 100 });

  beforeAll(async () => {
    browser = await new ConsoleBrowser(
      [generatePrivateKey()],
      SCREENSHOTS ?? join(fleet.harness.logDir, 'screenshots'),
    ).start();
    await fleet.start();
    page = browser.page;
    await signInAndLinkPaper(page, fleet.baseUrl, wallet(), ['hyperliquid', 'paradex']);
  }, 90_000);

  afterAll(async () => {
    await browser?.stop();
    await fleet.stop();
  });

  afterEach(() => {
    expect(browser.errors.splice(0)).toEqual([]);
  });

  it('draws both books while the trade runs, and no fill before there is one', async () => {
    const created = await api(
      'POST',
      '/trades',
      fleet.harness.gateway.tradeBody(wallet(), { target_size: '0.004', target_spread: '-1000' }),
    );
    expect(created.status).toBe(202);
    tradeId = created.body.trade_id as string;
    await page.goto(`${fleet.baseUrl}/console/trades/${tradeId}`);
    await statusIs('active');

    await page.getByTestId('fills-chart').locator('canvas').first().waitFor();
    await page.getByTestId('realised-spread-chart').locator('canvas').first().waitFor();
    // The books come from the spread endpoint, a reading a second: two readings draw two lines.
    await until('two book readings', async () => {
      const readings = /(\d+) readings/.exec(await legend('legend-books'))?.[1];
      return Number(readings) >= 2;
    });
    const makerBook = await colour('--chart-maker-book');
    await until('the maker venue’s book drawn', async () => {
      return (await pixelsOfColour(page, 'fills-chart', makerBook)) > 0;
    });
    expect(await legend('legend-maker-fills')).toBe('0, last none yet');
    expect(await pixelsOfColour(page, 'fills-chart', await colour('--chart-maker'))).toBe(0);
    expect(await legend('legend-realised')).toBe('none yet');
  });

  it('marks each fill and each hedged pair, the legends carrying the log’s figures', async () => {
    for (const part of ['0.002', '0.002']) {
      const order = await fleet.harness.waitForRestingOrder(trader(), 'hyperliquid');
      const before = (await logOf()).filter((e) => e.event_type === 'hedge_outcome').length;
      await fleet.harness.takeFromMaker(order, part);
      await until('the part hedged', async () => {
        const outcomes = (await logOf()).filter((e) => e.event_type === 'hedge_outcome');
        return outcomes.length > before;
      });
    }
    await statusIs('completed');

    const log = await logOf();
    const of = (type: string) => log.filter((entry) => entry.event_type === type);
    const makers = of('maker_fill');
    const hedges = of('hedge_filled');
    const pairs = of('hedge_outcome').filter((entry) => entry.data['spread_achieved'] !== null);
    expect(makers).toHaveLength(2);
    const shown = (entries: LogEntry[]) => {
      const { price, side, size } = entries[entries.length - 1].data;
      return `${entries.length}, last ${price} (${side} ${size})`;
    };
    await page.getByTestId('legend-maker-fills').getByText(shown(makers)).waitFor();
    await page.getByTestId('legend-hedge-fills').getByText(shown(hedges)).waitFor();
    const lastSpread = pairs[pairs.length - 1].data['spread_achieved'];
    const met = pairs.filter((pair) => Number(pair.data['spread_achieved']) >= -1000).length;
    expect(await legend('legend-realised')).toBe(
      `${pairs.length}, last ${lastSpread}, ${met} met the target`,
    );
    expect(await legend('legend-target')).toBe('gte -1000');

    // On the canvas: the fills in their series' colours, the pairs in the colour of a met target.
    for (const [chart, variable] of [
      ['fills-chart', '--chart-maker'],
      ['fills-chart', '--chart-hedge'],
      ['realised-spread-chart', '--good'],
    ]) {
      const drawn = await colour(variable);
      await until(`${variable} drawn on ${chart}`, async () => {
        return (await pixelsOfColour(page, chart, drawn)) > 0;
      });
    }
  });

  it('follows a dark system setting: the page and both charts turn dark, and back', async () => {
    expect(luminance(await pageBackground(page))).toBeGreaterThan(0.8);
    expect(luminance(await chartBackground(page, 'fills-chart'))).toBeGreaterThan(0.8);

    await page.emulateMedia({ colorScheme: 'dark' });
    expect(luminance(await pageBackground(page))).toBeLessThan(0.2);
    for (const chart of ['fills-chart', 'realised-spread-chart']) {
      // At once: the charts are told of the change (the page re-renders for other reasons too).
      await until(
        `${chart} dark`,
        async () => luminance(await chartBackground(page, chart)) < 0.2,
        2_000,
      );
    }
    // The series take the dark theme's colours too.
    const hedge = await colour('--chart-hedge');
    await until('the hedge fills in the dark colour', async () => {
      return (await pixelsOfColour(page, 'fills-chart', hedge)) > 0;
    });
    await browser.screenshot('trade-detail-dark');

    await page.emulateMedia({ colorScheme: 'light' });
    expect(luminance(await pageBackground(page))).toBeGreaterThan(0.8);
    await until('fills-chart light again', async () => {
      return luminance(await chartBackground(page, 'fills-chart')) > 0.8;
    });
  });
});
