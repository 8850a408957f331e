// The gateway's e2e harness (real gateway, in-process venue simulator, operator tool).
import { GatewayHarness } from '@sts/app-gateway-testing';
import { runCli } from '../src/cli';

jest.setTimeout(60_000);

/**
 * `sts balances` against a gateway on the paper venues: each account's row
 * carries the API's figures, the totals line its totals, and `--json`
 * prints the API's answer as it stands.
 */
describe('sts balances', () => {
  const gateway = new GatewayHarness();

  // The budget service too: each venue read holds a share of the account's rate budget.
  beforeAll(() => gateway.start({ venues: true, budget: true }));
  afterAll(() => gateway.stop());

  const sts = async (apiKey: string, ...argv: string[]) => {
    let stdout = '';
    const exitCode = await runCli(argv, {
      stdout: (text) => (stdout += text),
      stderr: () => undefined,
      env: { STS_API_URL: gateway.baseUrl, STS_API_KEY: apiKey },
    });
    return { exitCode, stdout };
  };

  it('prints each account’s margin balance and equity with the totals, and the answer with --json', async () => {
    const trader = await gateway.trader(['hyperliquid', 'paradex']);
    const human = await sts(trader.apiKey, 'balances');
    const json = await sts(trader.apiKey, '--json', 'balances');
    // Read within the gateway's 2 s window: the same venue reads answer all three.
    const answer = await gateway.request('GET', '/api/v1/balances', { headers: trader.headers });
    expect(answer.status).toBe(200);

    expect(human.exitCode).toBe(0);
    const wallet = trader.wallet.toLowerCase();
    for (const entry of answer.body.accounts) {
      const figures = [entry.balance, entry.unrealised_pnl, entry.equity, entry.available_margin];
      expect(human.stdout).toMatch(
        new RegExp(`^${wallet} +${entry.exchange} +PAPER +USDC +${figures.join(' +')} `, 'm'),
      );
    }
    expect(human.stdout).toContain(
      `total equity ${answer.body.totals.equity_usd} USD, available margin ${answer.body.totals.available_margin_usd} USD`,
    );
    expect(human.stdout).not.toContain('not in the totals');

    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(answer.body);
  });
});
