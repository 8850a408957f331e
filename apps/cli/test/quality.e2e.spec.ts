// The gateway's e2e harness (real gateway, in-process venue simulator, operator tool).
import { GatewayHarness } from '@sts/app-gateway-testing';
import { runCli } from '../src/cli';

jest.setTimeout(60_000);

/**
 * `sts quality` against a gateway: a trade's quoting and its fills with their
 * markouts and hedge slippage (against the decision and the arrival mid), the
 * caller's fills and quoting over a window as tables, `--json` as the API
 * answers, and `--trade` with a window flag as a usage error.
 */
describe('sts quality', () => {
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

  it('prints a trade’s fills and the window’s table, and the API’s answers with --json', async () => {
    const trader = await gateway.trader(['hyperliquid', 'paradex']);
    const created = await gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(trader.wallet),
    });
    expect(created.status).toBe(202);
    const tradeId: string = created.body.trade_id;
    const filledAt = Date.now();
    // The workers write the log; here entries are written as a worker would.
    const entries: Array<[string, object]> = [
      // As the trade went active, a maker order at the touch would have captured 2.5.
      ['chunk_started', { target_size: '0.01', size_type: 'base', spread_at_start: '2.5' }],
      [
        'maker_fill',
        {
          exchange: 'hyperliquid',
          market: 'BTC',
          side: 'buy',
          price: '65000',
          size: '0.004',
          order_id: 'o-1',
          client_order_id: 'c-1',
          fully_filled: true,
          timestamp_ms: filledAt,
          fill_id: 'fill-1',
          fee: null,
          fee_asset: null,
          liquidity: 'maker',
        },
      ],
      [
        'hedge_sent',
        {
          exchange: 'paradex',
          side: 'sell',
          size: '0.004',
          price: '64990',
          client_order_id: 'h-1',
          attempt: 1,
          cause: 'fill-1',
          arrival_mid: '65008.5',
        },
      ],
      // 4 s quoted until the fill: 3 orders placed, 2 canceled.
      [
        'quoting',
        {
          exchange: 'hyperliquid',
          side: 'buy',
          from_ms: filledAt - 4000,
          until_ms: filledAt,
          quoted_ms: 4000,
          placed: 3,
          replaced: 0,
          canceled: 2,
        },
      ],
      [
        'hedge_outcome',
        {
          result: 'filled',
          exchange: 'paradex',
          side: 'sell',
          requested_size: '0.004',
          filled_size: '0.004',
          avg_price: '65006',
          attempts: 1,
          slippage_bps: '0.769',
          spread_achieved: '6',
          guard_fill_class: null,
          cause: 'fill-1',
        },
      ],
      ['markout', { fill_id: 'fill-1', horizon_s: 1, mid: '65003.25', bps: '0.5' }],
    ];
    for (const [index, [eventType, data]] of entries.entries()) {
      await gateway.query(
        `INSERT INTO trade_events (trade_id, sequence, event_type, data, worker_id) VALUES ($1, $2, $3, $4, 'w-1')`,
        [tradeId, index + 1, eventType, JSON.stringify(data)],
      );
    }

    const trade = await sts(trader.apiKey, 'quality', '--trade', tradeId);
    expect(trade.exitCode).toBe(0);
    expect(trade.stdout).toMatch(/^ended {8}running$/m);
    // No hedge_filled logged: one leg only, so no realised spread to set against the target or the start.
    expect(trade.stdout).toMatch(
      /^spread {7}target 5 {2}realised - {2}vs target - {2}at start 2\.5 {2}vs start - \(absolute\)$/m,
    );
    // Running: no share of its life yet; 1 fill in 4 s quoted is 900 an hour.
    expect(trade.stdout).toMatch(
      /^quoting {6}4\.000 s {2}placed 3 {2}replaced 0 {2}canceled 2 {2}fills\/quote-hour 900 {2}re-quotes\/fill 2$/m,
    );
    expect(trade.stdout).toMatch(
      /^markout bps {2}1s 0\.5 {2}10s - {2}60s - {2}\(mean of 1 fills\)$/m,
    );
    expect(trade.stdout).toMatch(
      /^fill-1 +hyperliquid +buy +65000 +0\.004 +\S+ +0\.5 +- +- +-0\.769 +-0\.384565$/m,
    );

    const from = new Date(filledAt - 1000).toISOString();
    const to = new Date(filledAt + 1000).toISOString();
    const report = await sts(
      trader.apiKey,
      'quality',
      '--from',
      from,
      '--to',
      to,
      '--group-by',
      'side',
    );
    expect(report.exitCode).toBe(0);
    expect(report.stdout).toMatch(/^SIDE +FILLS +WHAT +N +MEAN +P5 +P50 +P95$/m);
    expect(report.stdout).toMatch(/^buy +1 +markout 1s +1 +0\.5 +0\.5 +0\.5 +0\.5$/m);
    expect(report.stdout).toMatch(/^buy +1 +hedge slip +1 +-0\.769 +-0\.769 +-0\.769 +-0\.769$/m);
    expect(report.stdout).toMatch(
      /^buy +1 +arrival slip +1 +-0\.384565 +-0\.384565 +-0\.384565 +-0\.384565$/m,
    );
    expect(report.stdout).toMatch(/^buy +1 +first fill ms +1 +(\d+) +\1 +\1 +\1$/m);
    expect(report.stdout).toMatch(
      /^SIDE +FILLS +QUOTED +PLACED +REQUOTES +FILLS\/QH +REQUOTES\/FILL +CANCELS\/FILL$/m,
    );
    expect(report.stdout).toMatch(/^buy +1 +4\.000 s +3 +2 +900 +2 +2$/m);

    const json = await sts(trader.apiKey, '--json', 'quality', '--trade', tradeId);
    const answer = await gateway.request('GET', `/api/v1/trades/${tradeId}/quality`, {
      headers: trader.headers,
    });
    expect(JSON.parse(json.stdout)).toEqual(answer.body);
    const jsonReport = await sts(trader.apiKey, '--json', 'quality', '--from', from, '--to', to);
    expect(JSON.parse(jsonReport.stdout)).toEqual(
      (
        await gateway.request('GET', `/api/v1/quality?from=${from}&to=${to}`, {
          headers: trader.headers,
        })
      ).body,
    );
  });

  it('refuses --trade with a window (usage) and prints the API’s 400 for a reversed one', async () => {
    const trader = await gateway.trader(['hyperliquid']);
    const usage = await sts(
      trader.apiKey,
      'quality',
      '--trade',
      'x',
      '--from',
      '2026-01-01T00:00:00Z',
    );
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toMatch(/--trade shows one trade/);
    const reversed = await sts(
      trader.apiKey,
      'quality',
      '--from',
      '2026-01-02T00:00:00Z',
      '--to',
      '2026-01-01T00:00:00Z',
    );
    expect(reversed.exitCode).toBe(1);
    expect(reversed.stderr).toMatch(
      /^error: 400 invalid_request: from \(2026-01-02T00:00:00\.000Z\) must be before to/,
    );
  });
});
