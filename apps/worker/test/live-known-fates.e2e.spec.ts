import Big from 'big.js';
import type { LoseNextFault } from '@sts/app-venue-sim';
import { WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(120_000);

/**
 * The hedge venue's hedge timeout here: long enough for a held queue (the
 * simulator's default hold, 1 s on Paradex and Extended), a lost answer's
 * look-ups and the venue's close to all fit on a loaded machine.
 */
const HEDGE_TIMEOUT_MS = 8_000;

interface FateCase {
  /** What the hedge venue's dialect plays (a reading its documents leave open, or the documented one). */
  profile: Record<string, string>;
  /** The hedge IOC's answer lost after the venue took it, or none. */
  lose?: Pick<LoseNextFault, 'at' | 'then'>;
}

/**
 * Known fates only (issue 54): under answers the venues document, a hedge
 * IOC's fate is its final state, never what a read or the stream showed
 * first, so one maker fill is hedged once. Before, the live client hedged it
 * two to five times: a Paradex IOC filled and read by id (which serves OPEN
 * and NEW orders only) came back refused; a lost IOC found still queued was
 * taken as unfilled; Extended's first stream update (NEW) was taken as the
 * fate; a miss in Paradex's lagging order history was taken as "never
 * placed". Judged by the simulator's own records: the hedge venue filled
 * exactly what the maker venue filled, and the trade completed.
 */
const CASES: Array<[string, string, string, string, FateCase]> = [
  [
    'paradex: an IOC filled and read by id, which serves open orders only',
    'paradex',
    'ETH',
    '0.04',
    { profile: { order_id_lookup: 'open_only' } },
  ],
  [
    'paradex: a lost IOC answer found queued (NEW)',
    'paradex',
    'ETH',
    '0.04',
    { profile: { order_queue: 'held' }, lose: { at: 'after', then: 'drop' } },
  ],
  [
    'paradex: a lost IOC answer missed by a lagging order history',
    'paradex',
    'ETH',
    '0.04',
    { profile: { history_lag: 'lagging' }, lose: { at: 'after', then: 'drop' } },
  ],
  [
    'extended: a lost IOC answer found queued (NEW)',
    'extended',
    'ETH',
    '0.04',
    { profile: { order_queue: 'held' }, lose: { at: 'after', then: 'drop' } },
  ],
  [
    'extended: a taker streamed NEW before FILLED',
    'extended',
    'ETH',
    '0.04',
    { profile: { stream_first: 'new_then_fate' } },
  ],
  [
    'lighter: a lost IOC answer found pending',
    'lighter',
    'ETH',
    '0.04',
    { profile: { order_queue: 'held' }, lose: { at: 'after', then: 'drop' } },
  ],
];

describe('live: a hedge IOC whose fate is not final yet is not hedged again', () => {
  const harness = new WorkerHarness();
  const hedgeVenues = [...new Set(CASES.map(([, hedge]) => hedge))];

  beforeAll(async () => {
    await harness.start({
      liveDialects: ['aster', ...hedgeVenues],
      workers: 1,
      env: Object.fromEntries(
        hedgeVenues.map((venue) => [
          `VENUE_${venue.toUpperCase()}_HEDGE_TIMEOUT_MS`,
          String(HEDGE_TIMEOUT_MS),
        ]),
      ),
    });
  });

  afterAll(() => harness.stop());

  const venueFilled = async (trader: Trader, venue: string): Promise<string> =>
    (await harness.sim.fillsOf(venue, trader.wallet))
      .reduce((sum, fill) => sum.plus(fill.size), new Big(0))
      .toFixed();

  it.each(CASES)('%s: hedged once', async (_name, hedge, market, size, fate) => {
    await harness.sim.setDialectProfile(hedge, fate.profile);
    try {
      const trader = await harness.liveTrader([hedge, 'aster']);
      const tradeId = await harness.createTrade(trader, {
        market,
        long_exchange: 'aster',
        short_exchange: hedge,
        maker_leg: 'long',
        target_size: size,
        target_spread: '-1000',
      });
      await harness.waitForStatus(trader, tradeId, 'active', 30_000);
      const order = await harness.waitForRestingOrder(trader, 'aster');
      if (fate.lose) {
        await harness.sim.loseNext(hedge, {
          op: 'place',
          orderType: 'ioc',
          wallet: trader.wallet,
          ...fate.lose,
        });
      }
      await harness.takeFromMaker(order, size);

      const completed = await harness.waitForStatus(trader, tradeId, 'completed', 40_000);
      expect(completed.failure_reason ?? '').toBe('');
      const events = await harness.events(trader, tradeId);
      expect(events.map((e) => e.event_type)).not.toContain('hedge_timeout');
      const outcome = events.find((e) => e.event_type === 'hedge_outcome')!;
      expect(outcome.data).toMatchObject({ result: 'filled' });
      expect(events.filter((e) => e.event_type === 'hedge_sent')).toHaveLength(1);
      // The venues' own records: hedged exactly what the maker filled, once.
      expect(await venueFilled(trader, 'aster')).toBe(size);
      expect(await venueFilled(trader, hedge)).toBe(size);
    } finally {
      await harness.sim.setDialectProfile(hedge, defaults(fate.profile));
    }
  });
});

/** The profile's readings back to their defaults (every case here changes one from it). */
function defaults(profile: Record<string, string>): Record<string, string> {
  const DEFAULT: Record<string, string> = {
    order_id_lookup: 'open_only',
    order_queue: 'prompt',
    history_lag: 'none',
    stream_first: 'fate',
  };
  return Object.fromEntries(Object.keys(profile).map((name) => [name, DEFAULT[name]!]));
}
