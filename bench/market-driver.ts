/**
 * The worker benches' market, run as a child of the bench (see driveMarket in
 * worker-fixture.ts): outside takers hitting the aster makers, and price
 * jumps on the other venues, over the simulator's control endpoint.
 */
import { SimControl } from '@sts/app-venue-sim';
import { MARKETS, SYMBOL, TAKER_SIDE, TAKER_SIZE, type Venue } from './bench-market';
import { sleep } from '@sts/platform';

/**
 * Venues whose prices jump, each only away from its own makers' orders (long
 * makers rest bids, so their venue only moves up; paradex's short makers rest
 * asks, so it only moves down): a jump re-prices orders and moves H, and the
 * house never trades through a resting order. Aster's makers rest at the top,
 * so aster never jumps.
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
        return control.jumpVenue(venue, bps, SYMBOL[venue][pick(MARKETS)]);
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
