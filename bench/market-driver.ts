/**
 * The worker benches' market, run as a child of the bench (see driveMarket in
 * worker-fixture.ts): outside takers hitting the aster makers, and price
 * jumps on the other venues, over the simulator's control endpoint.
 */
import { SimControl } from '@sts/app-venue-sim';
import { MARKETS, SYMBOL, TAKER_SIDE, TAKER_SIZE, type Venue } from './bench-market';
import { sleep } from '@sts/platform';

/**
 * Venues whose prices jump, each first away from its own makers' orders (long
 * makers rest bids, so their venue moves up; paradex's short makers rest
 * asks, so it moves down) and on its next jump back, so a price swings
 * between where it started and one jump away: the house never trades through
 * a resting order. A jump re-prices orders and moves H; a move of H against a
 * trade's maker breaks its condition (`at_risk`), the swing back leaves its
 * order valid but off the touch, so a burst holds both kinds. Aster's makers
 * rest at the top, so aster never jumps.
 */
const JUMPS: Array<{ venue: Venue; bps: number }> = [
  { venue: 'hyperliquid', bps: 1 },
  { venue: 'paradex', bps: -1 },
  { venue: 'lighter', bps: 1 },
  { venue: 'extended', bps: 1 },
];

/** Outside takers hitting the aster makers, and moves of the other venues' prices. */
function driveMarket(
  control: SimControl,
  options: { takersPerS: number; jumpsPerS: number },
): () => Promise<void> {
  let running = true;
  const loop = async (perS: number, act: () => Promise<unknown>): Promise<void> => {
    while (running) {
      await act().catch(() => undefined);
      await sleep(1000 / perS);
    }
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
  /** The books (venue and symbol) that stand one jump away from where they started. */
  const away = new Set<string>();
  const runs = [
    options.takersPerS > 0 &&
      loop(options.takersPerS, () => {
        const market = pick(MARKETS);
        return control.trade('aster', SYMBOL.aster[market], TAKER_SIDE.aster, TAKER_SIZE[market]);
      }),
    options.jumpsPerS > 0 &&
      loop(options.jumpsPerS, () => {
        // One book at a time, as markets move: a venue's price for one market.
        const { venue, bps } = pick(JUMPS);
        const symbol = SYMBOL[venue][pick(MARKETS)];
        const book = `${venue} ${symbol}`;
        const back = away.delete(book);
        if (!back) {
          away.add(book);
        }
        return control.jumpVenue(venue, back ? -bps : bps, symbol);
      }),
  ];
  return async () => {
    running = false;
    await Promise.all(runs);
  };
}

const stop = driveMarket(new SimControl(process.env['DRIVER_SIM_URL']!), {
  takersPerS: Number(process.env['DRIVER_TAKERS_PER_S']),
  jumpsPerS: Number(process.env['DRIVER_JUMPS_PER_S']),
});
process.on('message', () => {
  void stop().then(() => process.exit(0));
});
