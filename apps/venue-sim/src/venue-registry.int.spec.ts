import { loadVenueRegistry } from '@sts/platform';
import {
  CcxtVenueClient,
  createVenueClient,
  fetchVenueMarkets,
  paperBaseUrl,
  PaperVenueClient,
  type CcxtExchangeLike,
} from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from './sim-server';

describe('venue registry wiring (paper or live per venue)', () => {
  let sim: RunningVenueSim;
  beforeAll(async () => {
    sim = await startVenueSim({ seed: 3, tickMs: 0 });
  });
  afterAll(() => sim.stop());

  it('points paper venues at VENUE_SIM_URL unless the registry gives an endpoint', () => {
    const registry = loadVenueRegistry({
      VENUE_LIGHTER_ENDPOINT: 'http://10.0.0.5:7100/venues/lighter',
    });
    expect(paperBaseUrl(registry.paradex, { VENUE_SIM_URL: 'http://sim:7100/' })).toBe(
      'http://sim:7100/venues/paradex',
    );
    expect(paperBaseUrl(registry.paradex, {})).toBe('http://127.0.0.1:7100/venues/paradex');
    expect(paperBaseUrl(registry.lighter, { VENUE_SIM_URL: 'http://sim:7100' })).toBe(
      'http://10.0.0.5:7100/venues/lighter',
    );
  });

  it('builds a paper client that trades on the simulator', async () => {
    const env = { VENUE_SIM_URL: sim.url };
    const registry = loadVenueRegistry(env);
    const client = await createVenueClient(
      registry.extended,
      { apiKey: 'reg', apiSecret: 'reg-secret', wallet: '0xreg' },
      { env },
    );
    expect(client).toBeInstanceOf(PaperVenueClient);
    try {
      await client.connect();
      expect(await client.openOrders()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("reads a paper venue's universe without credentials", async () => {
    const registry = loadVenueRegistry({});
    const markets = await fetchVenueMarkets(registry.aster, { env: { VENUE_SIM_URL: sim.url } });
    expect(markets.map((market) => market.canonical)).toEqual([
      'BTC',
      'ETH',
      'SOL',
      '1000PEPE',
      'HYPE',
      'HYPE',
    ]);
  });

  it('builds a live ccxt client for a venue set to live, from the stored credential', async () => {
    const registry = loadVenueRegistry({ VENUE_HYPERLIQUID_MODE: 'live' });
    const seen: unknown[] = [];
    const client = await createVenueClient(
      registry.hyperliquid,
      { apiKey: '0xagent', apiSecret: '0xprivate', wallet: '0xmain' },
      {
        createExchange: async (venue, credentials) => {
          seen.push([venue, credentials]);
          return { id: venue, has: {} } as unknown as CcxtExchangeLike;
        },
      },
    );
    expect(client).toBeInstanceOf(CcxtVenueClient);
    expect(seen).toEqual([
      [
        'hyperliquid',
        {
          apiKey: '0xagent',
          secret: '0xprivate',
          privateKey: '0xprivate',
          walletAddress: '0xmain',
        },
      ],
    ]);
  });
});
