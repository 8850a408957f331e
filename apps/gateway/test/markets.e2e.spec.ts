import { readFileSync } from 'node:fs';
import { sleep } from '@sts/platform';
import { TcpProxy } from '@sts/testing';
import { GatewayHarness } from './gateway-harness';

interface WireMarket {
  symbol: string;
  tick_size: string;
  lot_size: string;
  min_size: string;
  min_notional?: string;
}

describe('GET /api/v1/markets (public, read from the venues)', () => {
  const gateway = new GatewayHarness();
  const venues = ['hyperliquid', 'paradex', 'extended'];
  const catalogue = new Map<string, WireMarket[]>();

  beforeAll(async () => {
    await gateway.start({ venues: true });
    for (const venue of venues) {
      const response = await fetch(`${gateway.venueSim!.url}/venues/${venue}/markets`);
      catalogue.set(venue, ((await response.json()) as { markets: WireMarket[] }).markets);
    }
  });
  afterAll(() => gateway.stop());

  const markets = async (query: string) => {
    const response = await gateway.request('GET', `/api/v1/markets?${query}`);
    expect(response.status).toBe(200);
    return response.body.markets as Array<{
      canonical: string;
      exchanges: Record<string, Record<string, unknown>>;
    }>;
  };

  /** Every entry the gateway shows is the venue's own: same symbol and sizes, optional fields only when supplied. */
  function expectFromCatalogue(list: Awaited<ReturnType<typeof markets>>) {
    for (const market of list) {
      for (const [venue, entry] of Object.entries(market.exchanges)) {
        const source = catalogue.get(venue)!.find((wire) => wire.symbol === entry.symbol);
        expect(source).toBeDefined();
        expect(entry).toMatchObject({
          tick_size: source!.tick_size,
          lot_size: source!.lot_size,
          min_size: source!.min_size,
        });
        if (source!.min_notional === undefined) {
          expect(entry).not.toHaveProperty('min_notional');
        } else {
          expect(entry.min_notional).toBe(source!.min_notional);
        }
      }
    }
  }

  it('defaults to the strict intersection of the listed exchanges', async () => {
    const list = await markets(`exchanges=${venues.join(',')}`);
    expect(list.map((market) => market.canonical)).toEqual(['1000PEPE', 'BTC', 'ETH', 'SOL']);
    const btc = list.find((market) => market.canonical === 'BTC')!;
    expect(Object.keys(btc.exchanges).sort()).toEqual([...venues].sort());
    expect(btc.exchanges['paradex'].symbol).toBe('BTC-USD-PERP');
    expect(btc.exchanges['hyperliquid'].symbol).toBe('BTC');
    expect(
      list.find((market) => market.canonical === '1000PEPE')!.exchanges['hyperliquid'].symbol,
    ).toBe('kPEPE');
    expectFromCatalogue(list);
  });

  it('min_exchanges=1 gives the union, min_exchanges=2 the markets on at least two', async () => {
    const union = await markets(`exchanges=${venues.join(',')}&min_exchanges=1`);
    expect(union.map((market) => market.canonical)).toEqual([
      '1000PEPE',
      'BTC',
      'ETH',
      'HYPE',
      'SOL',
    ]);
    expect(Object.keys(union.find((market) => market.canonical === 'HYPE')!.exchanges)).toEqual([
      'hyperliquid',
    ]);
    expectFromCatalogue(union);
    const two = await markets(`exchanges=${venues.join(',')}&min_exchanges=2`);
    expect(two.map((market) => market.canonical)).toEqual(['1000PEPE', 'BTC', 'ETH', 'SOL']);
    const pair = await markets('exchanges=hyperliquid,lighter');
    expect(pair.map((market) => market.canonical)).toEqual([
      '1000PEPE',
      'BTC',
      'ETH',
      'HYPE',
      'SOL',
    ]);
  });

  it('leaves out a venue whose listing of a market is ambiguous', async () => {
    const list = await markets('exchanges=hyperliquid,aster&min_exchanges=1');
    const hype = list.find((market) => market.canonical === 'HYPE')!;
    expect(Object.keys(hype.exchanges)).toEqual(['hyperliquid']);
  });

  it.each([
    ['no exchanges', ''],
    ['an unknown exchange', 'exchanges=hyperliquid,binance'],
    ['min_exchanges 0', 'exchanges=hyperliquid&min_exchanges=0'],
    ['min_exchanges above the list', 'exchanges=hyperliquid,paradex&min_exchanges=3'],
    ['min_exchanges not a number', 'exchanges=hyperliquid&min_exchanges=two'],
  ])('answers 400 invalid_request for %s', async (_case, query) => {
    const response = await gateway.request('GET', `/api/v1/markets?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_request');
  });
});

/**
 * Every venue's list is read once the gateway starts: a venue that stops
 * answering afterwards still has its list served (and the first create does
 * not wait for a read, which a loaded machine could take past the 5 s wait).
 */
describe('market lists read at start', () => {
  const gateway = new GatewayHarness();
  const venueLink = new TcpProxy(0);

  beforeAll(async () => {
    await venueLink.start();
    await gateway.start({
      venues: true,
      gatewayEnv: (env) => {
        venueLink.retarget(Number(new URL(env['VENUE_SIM_URL']).port));
        return { ...env, VENUE_SIM_URL: venueLink.rewrite(env['VENUE_SIM_URL']) };
      },
    });
  });
  afterAll(async () => {
    await gateway.stop();
    await venueLink.stop();
  });

  /** The venues whose list the gateway has logged as read. */
  const listsRead = (): Set<string> =>
    new Set(
      readFileSync(gateway.logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"market list loaded"'))
        .map((line) => (JSON.parse(line) as { venue: string }).venue),
    );

  it('serves a list read at start once the venue is unreachable', async () => {
    const deadline = Date.now() + 10_000;
    while (!['hyperliquid', 'paradex'].every((venue) => listsRead().has(venue))) {
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(50);
    }
    venueLink.cut();
    const response = await gateway.request('GET', '/api/v1/markets?exchanges=hyperliquid,paradex');
    expect(response.status).toBe(200);
    expect(
      response.body.markets.map((market: { canonical: string }) => market.canonical),
    ).toContain('BTC');
  });
});
