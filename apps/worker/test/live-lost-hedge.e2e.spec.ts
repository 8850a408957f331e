import Big from 'big.js';
import type { LoseNextFault } from '@sts/app-venue-sim';
import { WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(90_000);

/**
 * The hedge venue's hedge timeout here: 6 s, not the registry's 3 s. The
 * lost attempt lives a quarter of it (on Paradex plus the second its
 * signature's timestamp may lag: 1.75 s of 3), and on a loaded machine (CI)
 * the look-up, the retry and its fill once took the other 1.25 s and more;
 * with 5 s, a slow hour's CI once took Paradex's other 2.75 s and more (the
 * look-up and the retry are each a Stark-signed request).
 */
const HEDGE_TIMEOUT_MS = 6_000;

/**
 * A hedge IOC to a live venue whose orders expire (Hyperliquid's
 * `expiresAfter`, Paradex's `recv_window`, set by the live client) lost
 * before the venue: known unplaced once its lifetime (a quarter of the hedge
 * timeout; on Paradex plus the second its signature's timestamp may lag) has
 * passed, looked up, retried and filled inside the hedge timeout. Before the
 * expiry it waited ccxt's 10 s answer timeout, then a minute, and the trade
 * failed with the maker fill unhedged. Judged by the simulator's own records.
 * Aster's requests live the 10 s of its nonce window, past a 3 s hedge
 * timeout, and Extended's and Lighter's have no bound: a hedge lost there
 * waits for that bound, then is retried (live-lost-hedge-bounds.e2e.spec.ts).
 */
describe.each([
  ['hyperliquid', 'BTC', '0.004'],
  ['paradex', 'ETH', '0.04'],
])(
  'live: a hedge IOC lost before %s is retried inside the hedge timeout',
  (hedge, market, size) => {
    const harness = new WorkerHarness();

    beforeAll(async () => {
      await harness.start({
        liveDialects: [hedge, 'aster'],
        workers: 1,
        env: { [`VENUE_${hedge.toUpperCase()}_HEDGE_TIMEOUT_MS`]: String(HEDGE_TIMEOUT_MS) },
      });
    });

    afterAll(() => harness.stop());

    const venueFilled = async (trader: Trader, venue: string): Promise<string> =>
      (await harness.sim.fillsOf(venue, trader.wallet))
        .reduce((sum, fill) => sum.plus(fill.size), new Big(0))
        .toFixed();

    const cases: Array<[string, Pick<LoseNextFault, 'at' | 'then' | 'hangMs'>]> = [
      ['never reaches the venue', { at: 'before', then: 'drop' }],
      // Past the attempt's lifetime on either venue (1.5 s; Paradex 2.5 s).
      ['reaches the venue past its lifetime', { at: 'before', then: 'hang', hangMs: 3_500 }],
      // Held past ccxt's own answer timeout: the client stops waiting once the IOC is dead.
      ['is never answered', { at: 'before', then: 'hang', hangMs: 15_000 }],
    ];

    it.each(cases)('an IOC that %s: retried, hedged, no hedge_timeout', async (_name, fault) => {
      const trader = await harness.liveTrader([hedge, 'aster']);
      const tradeId = await harness.createTrade(trader, {
        market,
        long_exchange: 'aster',
        short_exchange: hedge,
        maker_leg: 'long',
        target_size: size,
        target_spread: '-1000',
      });
      await harness.waitForStatus(trader, tradeId, 'active', 20_000);
      const order = await harness.waitForRestingOrder(trader, 'aster');
      await harness.sim.loseNext(hedge, {
        op: 'place',
        orderType: 'ioc',
        wallet: trader.wallet,
        ...fault,
      });
      await harness.takeFromMaker(order, size);

      const completed = await harness.waitForStatus(trader, tradeId, 'completed', 20_000);
      expect(completed.failure_reason ?? '').toBe('');
      const events = await harness.events(trader, tradeId);
      expect(events.map((e) => e.event_type)).not.toContain('hedge_timeout');
      const sent = events.filter((e) => e.event_type === 'hedge_sent');
      expect(sent.map((e) => e.data.attempt)).toEqual([1, 2]);
      const outcome = events.find((e) => e.event_type === 'hedge_outcome')!;
      expect(outcome.data).toMatchObject({ result: 'filled' });
      // Hedged inside the hedge timeout, the lost attempt's lifetime and look-up included.
      const firstSentMs = Date.parse(sent[0].created_at);
      expect(Date.parse(outcome.created_at) - firstSentMs).toBeLessThan(HEDGE_TIMEOUT_MS);
      expect(await venueFilled(trader, hedge)).toBe(size);
      expect(await venueFilled(trader, 'aster')).toBe(size);
    });
  },
);
