import { GatewayHarness } from '@sts/app-gateway-testing';
import { StsApiError, StsClient, type Balances } from '../src';

jest.setTimeout(60_000);

/**
 * The SDK's `balances()` (issue 58) against a gateway on the paper venues:
 * the typed answer is the API's, each account's figures consistent (equity
 * = balance + unrealised PnL, totals their sum), and a key without
 * account:read refused with its code.
 */
describe('SDK balances against a gateway', () => {
  const gateway = new GatewayHarness();

  // The budget service too: each venue read holds a share of the account's rate budget.
  beforeAll(() => gateway.start({ venues: true, budget: true }));
  afterAll(() => gateway.stop());

  it("reads each account's margin balance and equity, with the totals", async () => {
    const trader = await gateway.trader(['hyperliquid', 'paradex']);
    const sts = new StsClient({ baseUrl: gateway.baseUrl, apiKey: trader.apiKey });
    const balances: Balances = await sts.balances();
    // Read within the gateway's 2 s window: the same venue reads answer both.
    const answer = await gateway.request('GET', '/api/v1/balances', { headers: trader.headers });
    expect(balances).toEqual(answer.body);

    expect(balances.accounts.map((entry) => [entry.exchange, entry.asset, entry.error])).toEqual([
      ['hyperliquid', 'USDC', null],
      ['paradex', 'USDC', null],
    ]);
    for (const entry of balances.accounts) {
      // No position yet: the equity is the balance.
      expect(entry).toMatchObject({ unrealised_pnl: '0', equity: entry.balance, in_totals: true });
    }
    const sum = (values: string[]) => values.reduce((total, value) => total + Number(value), 0);
    expect(Number(balances.totals.equity_usd)).toBe(
      sum(balances.accounts.map((entry) => entry.equity!)),
    );
    expect(balances.totals.complete).toBe(true);
  });

  it('raises insufficient_scope for a key without account:read', async () => {
    const reader = await gateway.userWithKey('trades:read');
    const sts = new StsClient({ baseUrl: gateway.baseUrl, apiKey: reader.apiKey });
    const refused = await sts.balances().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StsApiError);
    expect(refused).toMatchObject({ status: 403, code: 'insufficient_scope' });
  });
});
