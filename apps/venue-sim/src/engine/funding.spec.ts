import Big from 'big.js';
import { ASSETS } from '../config/assets';
import { VENUE_PROFILES } from '../config/venue-profiles';
import { HOUR_MS } from './funding-book';
import { Simulator } from './simulator';
import type { EngineSink } from './types';

const NOOP_SINK: EngineSink = {
  book: () => undefined,
  fill: () => undefined,
  order: () => undefined,
};

/** A world whose clock the spec sets. */
function world(startMs: number): { sim: Simulator; setClock: (ms: number) => void } {
  let clock = startMs;
  const sim = new Simulator({
    seed: 3,
    venues: VENUE_PROFILES,
    assets: ASSETS,
    now: () => clock,
    sink: NOOP_SINK,
    volScale: 0,
  });
  return { sim, setClock: (ms) => (clock = ms) };
}

/** Two accounts holding BTC on hyperliquid: a long of 0.5 and a short of 0.2 (through the book). */
function holders(sim: Simulator) {
  const venue = sim.venue('hyperliquid');
  const mark = venue.market('BTC').markPrice();
  venue.account('0xlong').applyFill('BTC', 'buy', mark, new Big('0.5'), new Big(0));
  venue.account('0xshort').applyFill('BTC', 'sell', mark, new Big('0.2'), new Big(0));
  return { venue, mark };
}

describe('funding', () => {
  it('settles each market at the end of its interval: longs pay a positive rate, shorts receive', () => {
    const start = Date.parse('2026-12-01T10:59:00Z');
    const { sim, setClock } = world(start);
    const { venue, mark } = holders(sim);
    venue.funding.setRate('BTC', new Big('0.0001'));
    sim.step();
    expect(venue.funding.paymentsOf('0xlong')).toEqual([]);

    setClock(start + 2 * 60_000);
    sim.step();
    const [paid] = venue.funding.paymentsOf('0xlong');
    const [got] = venue.funding.paymentsOf('0xshort');
    expect(paid).toMatchObject({
      symbol: 'BTC',
      timeMs: Date.parse('2026-12-01T11:00:00Z'),
      size: new Big('0.5'),
      asset: 'USDC',
    });
    expect(paid?.amount.toFixed()).toBe(mark.times('0.5').times('0.0001').neg().round(8).toFixed());
    expect(got?.amount.toFixed()).toBe(mark.times('0.2').times('0.0001').round(8).toFixed());
    // Once per interval, however many steps it takes.
    sim.step(5);
    expect(venue.funding.paymentsOf('0xlong')).toHaveLength(1);
    setClock(start + HOUR_MS + 2 * 60_000);
    sim.step();
    expect(venue.funding.paymentsOf('0xlong')).toHaveLength(2);
  });

  it('moves the account’s equity by what it paid or received', () => {
    const { sim } = world(Date.parse('2026-12-01T10:00:00Z'));
    const { venue } = holders(sim);
    const before = venue.account('0xlong').equity(venue.marks());
    const [payment] = venue.settleFunding('BTC', undefined, new Big('0.001'));
    expect(payment?.amount.lt(0)).toBe(true);
    expect(venue.account('0xlong').equity(venue.marks()).toFixed()).toBe(
      before.plus(payment!.amount).toFixed(),
    );
  });

  it('answers payments from a time on, and settles no account without a position', () => {
    const { sim, setClock } = world(Date.parse('2026-12-01T10:00:00Z'));
    const { venue } = holders(sim);
    venue.account('0xflat');
    venue.settleFunding('BTC');
    setClock(Date.parse('2026-12-01T10:30:00Z'));
    venue.settleFunding('BTC');
    expect(venue.funding.paymentsOf('0xflat')).toEqual([]);
    expect(venue.funding.paymentsOf('0xlong')).toHaveLength(2);
    expect(venue.funding.paymentsOf('0xlong', Date.parse('2026-12-01T10:15:00Z'))).toHaveLength(1);
    // The default rate is 0.01 % per 8 hours, scaled to the market's hourly interval.
    expect(venue.funding.paymentsOf('0xlong')[0]?.rate.toFixed()).toBe('0.0000125');
  });
});
