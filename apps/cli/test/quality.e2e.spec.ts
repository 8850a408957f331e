// The gateway's e2e harness (real gateway, in-process venue simulator, operator tool).
import { GatewayHarness } from '@sts/app-gateway-testing';
import { runCli } from '../src/cli';

jest.setTimeout(60_000);

/**
 * `sts quality` against a gateway: a trade's fills with their markouts and
 * hedge slippage, the caller's fills over a window as a table, `--json` as
 * the API answers, and `--trade` with a window flag as a usage error.
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
    expect(trade.stdout).toMatch(
      /^markout bps {2}1s 0\.5 {2}10s - {2}60s - {2}\(mean of 1 fills\)$/m,
    );
    expect(trade.stdout).toMatch(
      /^fill-1 +hyperliquid +buy +65000 +0\.004 +\S+ +0\.5 +- +- +-0\.769$/m,
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
