import { WorkerHarness } from './worker-harness';

jest.setTimeout(120_000);

/** One egress, bound to 127.0.0.2 (on Linux all of 127/8 is the loopback). */
const EGRESS_PLAN = JSON.stringify({ egresses: [{ id: 'a', bind: '127.0.0.2' }] });

/**
 * The egress plan wired end to end: with EGRESS_PLAN read at boot by the
 * gateway and the worker, the live venues' dialects see every request and
 * socket of the fleet (the trader's account clients, the worker's market
 * data, the gateway's market lists) come from the egress's address.
 */
describe('live venues send from the egress plan’s addresses', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start({ liveDialects: ['hyperliquid', 'aster'], env: { EGRESS_PLAN } });
  });

  afterAll(() => harness.stop());

  it('a trade’s requests and sockets reach the venue from 127.0.0.2', async () => {
    const trader = await harness.liveTrader(['hyperliquid', 'aster']);
    const tradeId = await harness.createTrade(trader, {
      market: 'BTC',
      long_exchange: 'hyperliquid',
      short_exchange: 'aster',
      maker_leg: 'long',
      target_size: '0.01',
      target_spread: '-1000',
    });
    await harness.waitForStatus(trader, tradeId, 'active', 20_000);
    await harness.waitForRestingOrder(trader, 'hyperliquid');

    // The harness itself sends nothing to Hyperliquid's dialect (it funds through /control).
    const [h1] = (await harness.sim.dialectRateLimits('hyperliquid')).pools;
    expect(h1.keys.map((count) => count.key)).toEqual(['ip:127.0.0.2']);
    for (const venue of ['hyperliquid', 'aster']) {
      const { sources } = await harness.sim.dialectSocketSources(venue);
      expect(sources.map((source) => source.key)).toEqual(['ip:127.0.0.2']);
    }
  });
});
