import { PaperVenueClient } from '@sts/venues';
// The gateway's e2e harness (real gateway, in-process venue simulator, operator tool).
import { GatewayHarness } from '@sts/app-gateway-testing';
import { runCli } from '../src/cli';

jest.setTimeout(60_000);

/**
 * `sts positions` against a gateway on the paper venues: a position made on
 * the trader's wallet outside the service is printed flagged, and `--json`
 * prints the API's answer as it stands.
 */
describe('sts positions', () => {
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

  it('prints each venue’s position with the flag, and the answer itself with --json', async () => {
    const trader = await gateway.trader(['paradex']);
    const client = new PaperVenueClient({
      venue: 'paradex',
      baseUrl: `${gateway.venueSim!.url}/venues/paradex`,
      credentials: trader.credentials['paradex'],
    });
    await client.connect();
    const book = (await (
      await fetch(`${gateway.venueSim!.url}/venues/paradex/book/BTC-USD-PERP?depth=1`)
    ).json()) as { bids: string[][] };
    await client.placeIoc({
      symbol: 'BTC-USD-PERP',
      side: 'sell',
      // At the best bid: an IOC sell that crosses.
      price: book.bids[0][0],
      size: '0.002',
      clientOrderId: 'outside-the-service-cli',
    });
    await client.close();

    const human = await sts(trader.apiKey, 'positions');
    expect(human.exitCode).toBe(0);
    const wallet = trader.wallet.toLowerCase();
    expect(human.stdout).toMatch(new RegExp(`^${wallet} BTC .*UNEXPLAINED`, 'm'));
    expect(human.stdout).toMatch(/^ {2}paradex +short +-0\.002 +fills 0 +UNEXPLAINED by -0\.002/m);

    const json = await sts(trader.apiKey, '--json', 'positions');
    expect(json.exitCode).toBe(0);
    const answer = await gateway.request('GET', '/api/v1/positions', { headers: trader.headers });
    // Read within the gateway's 2 s window: the same venue read answers both.
    expect(JSON.parse(json.stdout)).toEqual(answer.body);
  });
});
