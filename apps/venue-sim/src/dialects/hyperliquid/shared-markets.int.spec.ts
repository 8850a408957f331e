import { CcxtVenueClient, createCcxtExchange } from '@sts/venues';
import { startHlWorld, type HlWorld } from './hl-test-kit';

let world: HlWorld;

beforeAll(async () => {
  world = await startHlWorld();
});

afterAll(() => world.sim.stop());

/** The weight H1 (Hyperliquid's 1,200 a minute per IP) counted since the last reset. */
async function weightSpent(): Promise<number> {
  const { pools } = await world.control.dialectRateLimits('hyperliquid');
  return pools[0]!.keys.reduce((total, key) => total + key.admitted_weight, 0);
}

describe("a venue's markets, loaded once per process", () => {
  it('a second ccxt instance takes the markets the first loaded, without a request', async () => {
    const first = await createCcxtExchange('hyperliquid', {}, { endpoint: world.endpoint });
    await world.control.resetDialectRateLimits('hyperliquid');
    const markets = await first.loadMarkets();
    // metaAndAssetCtxs (the core perpetuals) and spotMeta (ccxt's currencies): 20 weight
    // each. No spot pairs (spotMetaAndAssetCtxs) nor builder dexes (perpDexs and a read per
    // dex): the service trades neither.
    expect(await weightSpent()).toBe(40);

    await world.control.resetDialectRateLimits('hyperliquid');
    const second = await createCcxtExchange('hyperliquid', {}, { endpoint: world.endpoint });
    const shared = await second.loadMarkets();
    expect(await weightSpent()).toBe(0);
    expect(Object.keys(shared).sort()).toEqual(Object.keys(markets).sort());
    expect(shared['BTC/USDC:USDC']?.baseId).toBe(markets['BTC/USDC:USDC']?.baseId);
    await Promise.all([first.close(), second.close()]);
  });

  it('instances made together wait for one load', async () => {
    const endpoint = `${world.endpoint}/`;
    const instances = await Promise.all(
      [1, 2, 3].map(() => createCcxtExchange('hyperliquid', {}, { endpoint })),
    );
    await world.control.resetDialectRateLimits('hyperliquid');
    const loaded = await Promise.all(instances.map((exchange) => exchange.loadMarkets()));
    const spent = await weightSpent();
    // One load's two reads of 20 weight, not three loads'.
    expect(spent).toBe(40);
    expect(Object.keys(loaded[2]!).sort()).toEqual(Object.keys(loaded[0]!).sort());
    await Promise.all(instances.map((exchange) => exchange.close()));
  });

  it('a market read (listing, funding, tickers) right after another costs nothing', async () => {
    const endpoint = `${world.endpoint}//`;
    const client = async () =>
      new CcxtVenueClient({
        venue: 'hyperliquid',
        exchange: await createCcxtExchange('hyperliquid', {}, { endpoint }),
        authenticated: false,
      });
    const first = await client();
    const read = await first.markets();
    expect(read.some((market) => market.canonical === 'BTC')).toBe(true);
    await world.control.resetDialectRateLimits('hyperliquid');
    const second = await client();
    const again = await second.markets();
    expect(await weightSpent()).toBe(0);
    expect(again.find((m) => m.canonical === 'BTC')).toEqual(
      read.find((m) => m.canonical === 'BTC'),
    );
    await Promise.all([first.close(), second.close()]);
  });
});
