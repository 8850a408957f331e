import { join, resolve } from 'node:path';
import Big from 'big.js';
import { generatePrivateKey } from 'viem/accounts';
import { eventually, type Trader } from '@sts/app-worker-testing';
import { cssVariable, pixelsOfColour, rgbOf } from './charts-canvas';
import {
  ConsoleBrowser,
  ConsoleFleet,
  goToPage,
  sessionApi,
  signInAndLinkPaper,
  type PaperKey,
} from './console-fleet';

jest.setTimeout(90_000);

/**
 * Issue 58: the Results page, in Debian's Chromium against the fleet on
 * paper venues. Two trades of the signed-in wallet, one on BTC and one on
 * ETH, long on hyperliquid and short on paradex, complete: the simulator
 * fills each maker order and the worker hedges it. Then the simulator
 * settles funding on both venues' positions. The figures the API must
 * answer are worked out here from what happened: volume, realised spread
 * and fees from the trades' execution logs (each fill as the worker logged
 * it from its venue), funding from the simulator's own payments. The page
 * shows GET /results for its window: the table per market and its totals,
 * the cumulative net's last figure, a line drawn on the canvas, and another
 * window when one is picked. Any console error fails the step.
 * UPDATE_CONSOLE_SCREENSHOTS=1 writes results.png into apps/console/docs/.
 */
const SCREENSHOTS = process.env['UPDATE_CONSOLE_SCREENSHOTS']
  ? resolve(__dirname, '../../apps/console/docs')
  : undefined;
const VENUES = ['hyperliquid', 'paradex'] as const;
const MARKETS = ['BTC', 'ETH'] as const;
/** The assets the API counts as US dollars one for one (the venues' margin assets). */
const USD_ASSETS = new Set(['USD', 'USDC', 'USDT', 'USD1']);
/** An interval's funding rate, settled on demand: longs pay shorts 0.05 %. */
const FUNDING_RATE = '0.0005';
/** The gateway reads an account's funding history at most every 30 s. */
const FUNDING_READ_MS = 35_000;

type Sums = {
  trades: number;
  fills: number;
  volume: string;
  realised_spread: string;
  fees: string;
  funding_paid: string;
  funding_received: string;
  net: string;
};
type Report = {
  from: string;
  to: string;
  group_by: string;
  currency: string;
  rows: Array<Sums & { key: string }>;
  totals: Sums;
  funding_unread: unknown[];
  unpriced_fees: number;
};
type FillEntry = {
  side: 'buy' | 'sell';
  price: string;
  size: string;
  fee: string | null;
  fee_asset: string | null;
};
type Payment = { symbol: string; amount: string; ts_ms: number };

/** A market's figures as worked out from its trade's log and the venues' funding. */
interface Expected {
  fills: number;
  volume: Big;
  realised: Big;
  fees: Big;
  unpriced: number;
  paid: Big;
  received: Big;
}

const FIGURES = [
  'trades',
  'fills',
  'volume',
  'realised_spread',
  'fees',
  'funding_paid',
  'funding_received',
  'net',
] as const;
const cellsOf = (sums: Sums) => FIGURES.map((field) => String(sums[field]));
/** The canonical market of a venue symbol: `BTC`, `BTC-USD-PERP`. */
const marketOf = (symbol: string) => symbol.split('-')[0];

describe('results in a browser', () => {
  const fleet = new ConsoleFleet();
  let browser: ConsoleBrowser;
  let page: ConsoleBrowser['page'];
  const keys: Record<string, PaperKey> = {};
  const expected = new Map<string, Expected>();

  const api = (method: string, path: string, body?: unknown) =>
    sessionApi(page, fleet.baseUrl)(method, path, body);
  const wallet = () => browser.accounts[0].address.toLowerCase();
  const trader = (): Trader => ({
    userId: '',
    wallet: wallet(),
    headers: {},
    credentials: Object.fromEntries(
      Object.entries(keys).map(([venue, key]) => [venue, { ...key, wallet: wallet() }]),
    ),
  });
  const until = (what: string, check: () => Promise<boolean>, timeoutMs = 10_000) =>
    eventually(async () => (await check()) || undefined, what, { timeoutMs, intervalMs: 500 });
  const control = async (path: string, body?: unknown) => {
    const response = await fetch(`${fleet.harness.sim.url}/control${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw new Error(`simulator control ${path}: HTTP ${response.status}`);
    }
    return (await response.json()) as { funding: Payment[] };
  };
  const results = async (window: { from: string; to: string }, groupBy: string) => {
    const query = `from=${encodeURIComponent(window.from)}&to=${encodeURIComponent(window.to)}`;
    const answer = await api('GET', `/results?${query}&group_by=${groupBy}`);
    expect(answer.status).toBe(200);
    return answer.body as Report;
  };

  /** A trade on `market` whose maker order the simulator fills whole; its id once completed. */
  async function completedTrade(market: string, size: string): Promise<string> {
    const created = await api(
      'POST',
      '/trades',
      fleet.harness.gateway.tradeBody(wallet(), {
        market,
        target_size: size,
        target_spread: '-1000',
      }),
    );
    expect(created.status).toBe(202);
    const tradeId = created.body.trade_id as string;
    const order = await fleet.harness.waitForRestingOrder(
      trader(),
      'hyperliquid',
      (resting) => marketOf(resting.symbol) === market,
    );
    await fleet.harness.takeFromMaker(order, order.size);
    await until(
      `the ${market} trade to complete`,
      async () => (await api('GET', `/trades/${tradeId}`)).body.status === 'completed',
      20_000,
    );
    return tradeId;
  }

  /** Volume, realised spread and fees of a trade, from its fills as the worker logged them. */
  async function fromTheLog(tradeId: string): Promise<Omit<Expected, 'paid' | 'received'>> {
    const { body } = await api('GET', `/trades/${tradeId}/events`);
    const fills = (body.events as Array<{ event_type: string; data: FillEntry }>)
      .filter((event) => event.event_type === 'maker_fill' || event.event_type === 'hedge_filled')
      .map((event) => event.data);
    const notional = (side: string) =>
      fills
        .filter((fill) => fill.side === side)
        .reduce((sum, fill) => sum.plus(new Big(fill.price).times(fill.size)), new Big(0));
    const size = (side: string) =>
      fills
        .filter((fill) => fill.side === side)
        .reduce((sum, fill) => sum.plus(fill.size), new Big(0));
    // Hedged whole: every unit bought was sold, so the spread captured is what the sells took in
    // less what the buys paid.
    expect(size('buy').eq(size('sell'))).toBe(true);
    const priced = fills.filter(
      (fill) => fill.fee !== null && fill.fee_asset !== null && USD_ASSETS.has(fill.fee_asset),
    );
    return {
      fills: fills.length,
      volume: notional('buy').plus(notional('sell')),
      realised: notional('sell').minus(notional('buy')),
      fees: priced.reduce((sum, fill) => sum.plus(fill.fee as string), new Big(0)),
      unpriced: fills.length - priced.length,
    };
  }

  /** The figures of one market (or of all) as the API's decimals: 8 places, no trailing zeros. */
  function answerOf(parts: readonly Expected[]): Omit<Sums, 'trades'> {
    const sum = (pick: (part: Expected) => Big) =>
      parts.reduce((total, part) => total.plus(pick(part)), new Big(0));
    const text = (value: Big) => new Big(value.toFixed(8)).toFixed();
    const [realised, fees, paid, received] = [
      sum((part) => part.realised),
      sum((part) => part.fees),
      sum((part) => part.paid),
      sum((part) => part.received),
    ];
    return {
      fills: parts.reduce((total, part) => total + part.fills, 0),
      volume: text(sum((part) => part.volume)),
      realised_spread: text(realised),
      fees: text(fees),
      funding_paid: text(paid),
      funding_received: text(received),
      net: text(realised.minus(fees).minus(paid).plus(received)),
    };
  }

  beforeAll(async () => {
    browser = await new ConsoleBrowser(
      [generatePrivateKey()],
      SCREENSHOTS ?? join(fleet.harness.logDir, 'screenshots'),
    ).start();
    await fleet.start();
    page = browser.page;
    Object.assign(keys, await signInAndLinkPaper(page, fleet.baseUrl, wallet(), VENUES));
    const startedMs = Date.now();
    const trades = new Map<string, string>();
    for (const market of MARKETS) {
      trades.set(market, await completedTrade(market, market === 'BTC' ? '0.002' : '0.1'));
    }
    // Both legs' positions stay open: the venues settle funding on them now.
    const symbols = new Map<string, Set<string>>();
    for (const venue of VENUES) {
      const fills = await fleet.harness.sim.fillsOf(venue, wallet());
      symbols.set(venue, new Set(fills.map((fill) => fill.symbol)));
      for (const symbol of symbols.get(venue) ?? []) {
        await control(`/venues/${venue}/funding`, { symbol, rate: FUNDING_RATE });
      }
    }
    for (const market of MARKETS) {
      expected.set(market, {
        ...(await fromTheLog(trades.get(market) as string)),
        paid: new Big(0),
        received: new Big(0),
      });
    }
    for (const venue of VENUES) {
      const { funding } = await control(
        `/venues/${venue}/accounts/${wallet()}/funding?since=${startedMs}`,
      );
      for (const payment of funding) {
        const figures = expected.get(marketOf(payment.symbol)) as Expected;
        const amount = new Big(payment.amount);
        figures.received = amount.gt(0) ? figures.received.plus(amount) : figures.received;
        figures.paid = amount.lt(0) ? figures.paid.minus(amount) : figures.paid;
      }
    }
    // Longs pay shorts: each market's long leg paid on hyperliquid, its short leg received on paradex.
    for (const market of MARKETS) {
      const figures = expected.get(market) as Expected;
      expect([figures.paid.gt(0), figures.received.gt(0)]).toEqual([true, true]);
    }
  }, 150_000);

  afterAll(async () => {
    await browser?.stop();
    await fleet.stop();
  });

  afterEach(() => {
    expect(browser.errors.splice(0)).toEqual([]);
  });

  it('answers the results worked out from the fills and the venues’ funding', async () => {
    const window = {
      from: new Date(Date.now() - 86_400_000).toISOString(),
      to: new Date().toISOString(),
    };
    // The gateway reads each account's funding at most every 30 s: the settlements may wait a read.
    let byMarket: Report | undefined;
    await until(
      'GET /results to count the funding the venues paid',
      async () => {
        byMarket = await results({ ...window, to: new Date().toISOString() }, 'market');
        return byMarket.totals.funding_paid === answerOf([...expected.values()]).funding_paid;
      },
      FUNDING_READ_MS,
    );
    const report = byMarket as Report;
    expect(report.currency).toBe('USD');
    expect(report.funding_unread).toEqual([]);
    expect(report.unpriced_fees).toBe(
      [...expected.values()].reduce((sum, figures) => sum + figures.unpriced, 0),
    );
    expect(report.rows.map((row) => row.key)).toEqual([...MARKETS]);
    for (const row of report.rows) {
      expect({ market: row.key, ...row }).toEqual({
        market: row.key,
        key: row.key,
        trades: 1,
        ...answerOf([expected.get(row.key) as Expected]),
      });
    }
    expect(report.totals).toEqual({ trades: 2, ...answerOf([...expected.values()]) });
  });

  it('shows the table per market, its totals and the cumulative net as GET /results', async () => {
    await goToPage(page, 'Results', 'Results');
    await page.getByTestId('results-table').waitFor();
    const shown = page.getByTestId('results-window');
    const window = {
      from: String(await shown.getAttribute('data-from')),
      to: String(await shown.getAttribute('data-to')),
    };
    // The first window: the last 30 days.
    expect(Date.parse(window.to) - Date.parse(window.from)).toBe(30 * 86_400_000);
    const byMarket = await results(window, 'market');
    const byDay = await results(window, 'day');
    await tableShows(byMarket);
    expect(byMarket.totals).toEqual({ trades: 2, ...answerOf([...expected.values()]) });
    expect(byDay.totals).toEqual(byMarket.totals);
    expect(await page.getByTestId('results-net').innerText()).toBe(byDay.totals.net);
    expect(await page.getByTestId('results-days').innerText()).toBe(String(byDay.rows.length));
    expect(await page.getByTestId('results-note').count()).toBe(byMarket.unpriced_fees > 0 ? 1 : 0);

    // The line ends at the net: above zero in the good colour, below it in the bad one.
    const colour = await cssVariable(page, new Big(byDay.totals.net).gte(0) ? '--good' : '--bad');
    await until('the cumulative net drawn', async () => {
      return (await pixelsOfColour(page, 'net-chart', rgbOf(colour))) > 0;
    });
    await browser.screenshot('results');

    // Another window: the last 7 days, asked of the API again; the trades are in it too.
    await page.getByLabel('7 days').check();
    await until('the 7-day window', async () => {
      const from = Date.parse(String(await shown.getAttribute('data-from')));
      return Date.parse(String(await shown.getAttribute('data-to'))) - from === 7 * 86_400_000;
    });
    const week = {
      from: String(await shown.getAttribute('data-from')),
      to: String(await shown.getAttribute('data-to')),
    };
    await tableShows(await results(week, 'market'));
  });

  /** Each market's row and the totals row: every cell as the API answers it. */
  async function tableShows(report: Report): Promise<void> {
    await until('the table to show the window asked', async () => {
      const rows = page.getByTestId('results-row');
      if ((await rows.count()) !== report.rows.length) {
        return false;
      }
      for (const row of report.rows) {
        const cells = await page
          .locator(`[data-testid="results-row"][data-market="${row.key}"]`)
          .locator('th, td')
          .allInnerTexts();
        if (JSON.stringify(cells) !== JSON.stringify([row.key, ...cellsOf(row)])) {
          return false;
        }
      }
      const totals = await page.getByTestId('results-totals').locator('th, td').allInnerTexts();
      return JSON.stringify(totals) === JSON.stringify(['Total', ...cellsOf(report.totals)]);
    });
  }
});
