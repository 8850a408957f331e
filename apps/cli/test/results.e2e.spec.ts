// The gateway's e2e harness (real gateway, in-process venue simulator, operator tool).
import { GatewayHarness } from '@sts/app-gateway-testing';
import { runCli } from '../src/cli';

jest.setTimeout(60_000);

const DAY_MS = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The UTC date of the ISO week's Monday. */
const mondayOf = (ms: number) => utcDate(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS);

/**
 * `sts results` against a gateway: two trades whose fills are written to
 * their logs as a worker writes them (no worker runs, and the simulator holds
 * no position for them, so no funding), two days apart; the table by day,
 * week, market and venue with the figures worked out by hand, the unpriced
 * fee noted below it, `--json` as the API answers, and the API's 400s.
 */
describe('sts results', () => {
  const gateway = new GatewayHarness();

  // A create reserves rate budget and checks the venues: the budget service and the simulator too.
  beforeAll(() => gateway.start({ venues: true, budget: true }));
  afterAll(() => gateway.stop());

  const sts = async (apiKey: string, ...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const exitCode = await runCli(argv, {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      env: { STS_API_URL: gateway.baseUrl, STS_API_KEY: apiKey },
    });
    return { exitCode, stdout, stderr };
  };

  const fill = (
    exchange: string,
    side: 'buy' | 'sell',
    price: string,
    size: string,
    atMs: number,
    fee: [string, string],
  ) => ({
    exchange,
    side,
    price,
    size,
    timestamp_ms: atMs,
    fee: fee[0],
    fee_asset: fee[1],
  });

  /** A trade of the trader's whose log holds one maker fill and its hedge's fill. */
  async function filledTrade(
    trader: Awaited<ReturnType<GatewayHarness['trader']>>,
    makerLeg: 'long' | 'short',
    maker: ReturnType<typeof fill>,
    hedge: ReturnType<typeof fill>,
  ): Promise<string> {
    const created = await gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(trader.wallet, { maker_leg: makerLeg }),
    });
    expect(created.status).toBe(202);
    const tradeId: string = created.body.trade_id;
    const entries: Array<[string, object]> = [
      [
        'maker_fill',
        {
          ...maker,
          market: 'BTC',
          order_id: `o-${tradeId}`,
          client_order_id: `c-${tradeId}`,
          fully_filled: true,
          fill_id: `f-${tradeId}`,
          liquidity: 'maker',
        },
      ],
      [
        'hedge_filled',
        {
          ...hedge,
          order_id: `h-${tradeId}`,
          client_order_id: `hc-${tradeId}`,
          liquidity: 'taker',
        },
      ],
    ];
    for (const [index, [eventType, data]] of entries.entries()) {
      await gateway.query(
        `INSERT INTO trade_events (trade_id, sequence, event_type, data, worker_id) VALUES ($1, $2, $3, $4, 'w-1')`,
        [tradeId, index + 1, eventType, JSON.stringify(data)],
      );
    }
    return tradeId;
  }

  it('prints the results by day, week, market and venue as worked out from the fills', async () => {
    const trader = await gateway.trader(['hyperliquid', 'paradex']);
    // Noon UTC yesterday, and two days before: each trade's two fills fall on one UTC day.
    const recentMs = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS / 2;
    const earlierMs = recentMs - 2 * DAY_MS;
    // Bought 0.004 at 65000 on hyperliquid, sold at 65006 on paradex: 0.024 realised, 0.089 in fees.
    await filledTrade(
      trader,
      'long',
      fill('hyperliquid', 'buy', '65000', '0.004', recentMs, ['0.039', 'USDC']),
      fill('paradex', 'sell', '65006', '0.004', recentMs + 100, ['0.05', 'USD']),
    );
    // Sold 0.002 at 65010 on paradex for a rebate, bought at 65002 on hyperliquid with a fee in
    // HYPE (not priced in USD: left out of the fees): 0.016 realised, -0.0013 in fees.
    await filledTrade(
      trader,
      'short',
      fill('paradex', 'sell', '65010', '0.002', earlierMs, ['-0.0013', 'USDC']),
      fill('hyperliquid', 'buy', '65002', '0.002', earlierMs + 100, ['0.02', 'HYPE']),
    );
    const from = new Date(earlierMs - DAY_MS).toISOString();
    const to = new Date().toISOString();
    const window = ['--from', from, '--to', to];

    const byDay = await sts(trader.apiKey, 'results', ...window);
    expect(byDay.exitCode).toBe(0);
    expect(byDay.stdout).toMatch(
      /^DAY +TRADES +FILLS +VOLUME +REALISED +FEES +FUNDING PAID +FUNDING RECEIVED +NET$/m,
    );
    const rows = byDay.stdout.split('\n').filter((line) => /^(\d{4}-|total)/.test(line));
    expect(rows.map((line) => line.split(/ +/))).toEqual([
      [utcDate(earlierMs), '1', '2', '260.024', '0.016', '-0.0013', '0', '0', '0.0173'],
      [utcDate(recentMs), '1', '2', '520.024', '0.024', '0.089', '0', '0', '-0.065'],
      ['total', '2', '4', '780.048', '0.04', '0.0877', '0', '0', '-0.0477'],
    ]);
    expect(byDay.stdout).toMatch(
      /\n1 fill with a fee in an asset not priced in USD: left out of FEES and NET\n$/,
    );
    expect(byDay.stdout).not.toMatch(/funding not read now/);

    const byWeek = await sts(trader.apiKey, 'results', ...window, '--group-by', 'week');
    expect(byWeek.stdout).toMatch(/^WEEK OF +TRADES /m);
    const weeks = [...new Set([mondayOf(earlierMs), mondayOf(recentMs)])];
    expect(
      byWeek.stdout
        .split('\n')
        .filter((line) => /^\d{4}-/.test(line))
        .map((line) => line.split(/ +/)[0]),
    ).toEqual(weeks);
    expect(byWeek.stdout).toMatch(/^total +2 +4 +780\.048 +0\.04 +0\.0877 +0 +0 +-0\.0477$/m);

    const byMarket = await sts(trader.apiKey, 'results', ...window, '--group-by', 'market');
    expect(byMarket.stdout).toMatch(/^MARKET +TRADES /m);
    expect(byMarket.stdout).toMatch(/^BTC +2 +4 +780\.048 +0\.04 +0\.0877 +0 +0 +-0\.0477$/m);

    // By venue each pair's spread is shared half and half between its two venues.
    const byVenue = await sts(trader.apiKey, 'results', ...window, '--group-by', 'venue');
    expect(byVenue.stdout).toMatch(/^hyperliquid +2 +2 +390\.004 +0\.02 +0\.039 +0 +0 +-0\.019$/m);
    expect(byVenue.stdout).toMatch(/^paradex +2 +2 +390\.044 +0\.02 +0\.0487 +0 +0 +-0\.0287$/m);

    const json = await sts(trader.apiKey, '--json', 'results', ...window, '--group-by', 'venue');
    const answer = await gateway.request(
      'GET',
      `/api/v1/results?from=${from}&to=${to}&group_by=venue`,
      { headers: trader.headers },
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(json.stdout)).toEqual(answer.body);
    expect(answer.body).toMatchObject({ currency: 'USD', funding_unread: [], unpriced_fees: 1 });
  });

  it('prints the API’s 400 for a reversed window and a grouping it does not know', async () => {
    const trader = await gateway.trader(['hyperliquid']);
    const reversed = await sts(
      trader.apiKey,
      'results',
      '--from',
      '2026-01-02T00:00:00Z',
      '--to',
      '2026-01-01T00:00:00Z',
    );
    expect(reversed.exitCode).toBe(1);
    expect(reversed.stderr).toMatch(
      /^error: 400 invalid_request: from \(2026-01-02T00:00:00\.000Z\) must be before to/,
    );
    const grouping = await sts(trader.apiKey, 'results', '--group-by', 'side');
    expect(grouping.exitCode).toBe(1);
    expect(grouping.stderr).toMatch(/^error: 400 invalid_request: .*group_by/);
    // Nothing traded: the window's line, and no table.
    const empty = await sts(trader.apiKey, 'results', '--group-by', 'market');
    expect(empty.exitCode).toBe(0);
    expect(empty.stdout).toMatch(/^results by market from \S+ to \S+ \(USD; /);
    expect(empty.stdout).toMatch(/\nno fills in this window\n$/);
  });
});
