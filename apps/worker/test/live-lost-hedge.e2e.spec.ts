import Big from 'big.js';
import type { LoseNextFault } from '@sts/app-venue-sim';
import { WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(90_000);

/**
 * A hedge IOC to a live venue whose orders expire (Hyperliquid's
 * `expiresAfter`, signed by the live client) lost before the venue: known
 * unplaced once its lifetime (a quarter of the hedge timeout) has passed,
 * looked up, retried and filled inside the hedge timeout. Before the expiry
 * it waited ccxt's 10 s answer timeout, then a minute, and the trade failed
 * with the maker fill unhedged. Judged by the simulator's own records.
 */
describe('live: a hedge IOC lost before Hyperliquid is retried inside the hedge timeout', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start({ liveDialects: ['hyperliquid', 'aster'], workers: 1 });
  });

  afterAll(() => harness.stop());

  const venueFilled = async (trader: Trader, venue: string): Promise<string> =>
    (await harness.sim.fillsOf(venue, trader.wallet))
      .reduce((sum, fill) => sum.plus(fill.size), new Big(0))
      .toFixed();

  const cases: Array<[string, Pick<LoseNextFault, 'at' | 'then' | 'hangMs'>]> = [
    ['never reaches the venue', { at: 'before', then: 'drop' }],
    ['reaches the venue past its lifetime', { at: 'before', then: 'hang', hangMs: 2_000 }],
    // Held past ccxt's own answer timeout: the client stops waiting once the IOC is dead.
    ['is never answered', { at: 'before', then: 'hang', hangMs: 15_000 }],
  ];

  it.each(cases)('an IOC that %s: retried, hedged, no hedge_timeout', async (_name, fault) => {
    const trader = await harness.liveTrader(['hyperliquid', 'aster']);
    const tradeId = await harness.createTrade(trader, {
      market: 'BTC',
      long_exchange: 'aster',
      short_exchange: 'hyperliquid',
      maker_leg: 'long',
      target_size: '0.004',
      target_spread: '-1000',
    });
    await harness.waitForStatus(trader, tradeId, 'active', 20_000);
    const order = await harness.waitForRestingOrder(trader, 'aster');
    await harness.sim.loseNext('hyperliquid', {
      op: 'place',
      orderType: 'ioc',
      wallet: trader.wallet,
      ...fault,
    });
    await harness.takeFromMaker(order, '0.004');

    const completed = await harness.waitForStatus(trader, tradeId, 'completed', 20_000);
    expect(completed.failure_reason ?? '').toBe('');
    const events = await harness.events(trader, tradeId);
    expect(events.map((e) => e.event_type)).not.toContain('hedge_timeout');
    const sent = events.filter((e) => e.event_type === 'hedge_sent');
    expect(sent.map((e) => e.data.attempt)).toEqual([1, 2]);
    const outcome = events.find((e) => e.event_type === 'hedge_outcome')!;
    expect(outcome.data).toMatchObject({ result: 'filled' });
    // Hedged inside the hedge timeout (3 s), the lost attempt's lifetime and look-up included.
    const firstSentMs = Date.parse(sent[0].created_at);
    expect(Date.parse(outcome.created_at) - firstSentMs).toBeLessThan(3_000);
    expect(await venueFilled(trader, 'hyperliquid')).toBe('0.004');
    expect(await venueFilled(trader, 'aster')).toBe('0.004');
  });
});
