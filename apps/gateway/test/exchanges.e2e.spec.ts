import { loadVenueRegistry } from '@sts/platform';
import { VENUE_IDS } from '@sts/domain';
import { GatewayHarness } from './gateway-harness';

/**
 * GET /api/v1/exchanges (public, issue 34): every venue of the deployment
 * with the mode it runs in, its maker cap, whether hedges share its account
 * limit, and whether trading on it is halted now; and each trade's legs say
 * the mode they run in. Hyperliquid runs live against its dialect here, the
 * rest on paper: a deployment that mixes both says which is which.
 */
describe('GET /api/v1/exchanges and the legs’ modes', () => {
  const gateway = new GatewayHarness();

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true, liveDialects: ['hyperliquid'] });
  });
  afterAll(() => gateway.stop());

  const exchanges = async () => {
    const response = await gateway.request('GET', '/api/v1/exchanges');
    expect(response.status).toBe(200);
    return response.body as Array<Record<string, unknown>>;
  };

  it('lists every venue as the registry has it, without a key', async () => {
    const registry = loadVenueRegistry(gateway.env);
    expect(await exchanges()).toEqual(
      VENUE_IDS.map((id) => ({
        exchange: id,
        mode: id === 'hyperliquid' ? 'live' : 'paper',
        maker_cap: registry[id].makerCap,
        cap_group: registry[id].capGroup,
        shared_account_limit: registry[id].sharedAccountLimit,
        hedge_timeout_ms: registry[id].hedgeTimeoutMs,
        maintenance: false,
        trading_halted: false,
      })),
    );
  });

  it('says where trading is halted: a venue in maintenance, then the whole system, then the kill switch', async () => {
    const halted = async () =>
      Object.fromEntries(
        (await exchanges()).map((entry) => [
          entry['exchange'],
          [entry['maintenance'], entry['trading_halted']],
        ]),
      );
    await gateway.ops('maintenance', 'set', 'paradex', 'on', '--reason', 'upgrade');
    try {
      expect((await halted())['paradex']).toEqual([true, true]);
      expect((await halted())['lighter']).toEqual([false, false]);
      await gateway.ops('maintenance', 'set', '_system', 'on');
      expect((await halted())['lighter']).toEqual([false, true]);
    } finally {
      await gateway.ops('maintenance', 'set', '_system', 'off');
      await gateway.ops('maintenance', 'set', 'paradex', 'off');
    }
    await gateway.ops('kill-switch', 'on', '--reason', 'drill');
    try {
      expect(Object.values(await halted())).toEqual(VENUE_IDS.map(() => [false, true]));
    } finally {
      await gateway.ops('kill-switch', 'off');
    }
    expect(Object.values(await halted())).toEqual(VENUE_IDS.map(() => [false, false]));
  });

  it("gives each trade's legs the mode their venue runs in", async () => {
    const trader = await gateway.trader(['hyperliquid', 'paradex']);
    const created = await gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(trader.wallet, { maker_leg: 'short' }),
    });
    expect(created.status).toBe(202);
    const one = await gateway.request('GET', `/api/v1/trades/${created.body.trade_id}`, {
      headers: trader.headers,
    });
    expect(one.body).toMatchObject({
      long_exchange: 'hyperliquid',
      long_mode: 'live',
      short_exchange: 'paradex',
      short_mode: 'paper',
    });
    const list = await gateway.request('GET', '/api/v1/trades', { headers: trader.headers });
    expect(list.body[0]).toMatchObject({ long_mode: 'live', short_mode: 'paper' });
  });
});
